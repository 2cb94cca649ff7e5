using System.Linq;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Host
{
    /// <summary>Host pings (protocol.md §11) and single-connection eviction (§10).</summary>
    [TestFixture]
    public class LivenessAndEvictionTests
    {
        [Test]
        public void AClientThatAnswersPingsStaysAndOneThatMissesAPingIsDroppedWithoutABye()
        {
            using (var host = TestHost.Start(o => o.PingIntervalMs = 150))
            using (var answering = host.Authenticated())
            using (var silent = host.Connect())
            {
                silent.AnswerPings = false;
                Assert.That(silent.Hello(host.Token)["result"], Is.Not.Null);
                var ping = silent.Next(2000);
                Assert.That((string)ping["method"], Is.EqualTo("ping"));
                silent.ExpectClosed();
                var cancel = silent.Seen.FirstOrDefault(m => (string)m["method"] == "notifications/cancelled");
                Assert.That(cancel, Is.Not.Null, "the host gives up on its ping before closing");
                Assert.That(JToken.DeepEquals(cancel["params"]["requestId"], ping["id"]), Is.True);
                Assert.That(silent.Seen.Any(m => (string)m["method"] == "notifications/host/bye"), Is.False);

                // Several pings later, the one that answers is still served.
                for (int i = 0; i < 3; i++) Assert.That((string)answering.NotificationOrRequest("ping")["method"], Is.EqualTo("ping"));
                answering.Request("p", "ping");
                Assert.That(answering.ResponseTo("p")["result"], Is.Not.Null);
            }
        }

        [Test]
        public void APingAnsweredWithAnErrorIsMissed()
        {
            using (var host = TestHost.Start(o => o.PingIntervalMs = 100))
            using (var peer = host.Connect())
            {
                peer.AnswerPings = false;
                peer.Hello(host.Token);
                var ping = peer.Next(2000);
                peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = ping["id"], ["error"] = new JObject { ["code"] = -32601, ["message"] = "no" } });
                peer.ExpectClosed();
            }
        }

        [Test]
        public void ANewConnectionEvictsTheOldestWithAByeBeforeItsHelloResult()
        {
            using (var host = TestHost.Start(o => o.MaxConnections = 1))
            using (var first = host.Authenticated("first-agent"))
            using (var served = host.Authenticated("tether-serve"))
            {
                first.ExpectClosed();
                var bye = first.Seen.Last();
                Assert.That((string)bye["method"], Is.EqualTo("notifications/host/bye"), "the bye is the last frame");
                var fields = (JObject)bye["params"];
                Assert.That((string)fields["reason"], Is.EqualTo("evicted"));
                Assert.That((string)fields["status"], Is.EqualTo("evicted"));
                Assert.That((string)fields["newClientEndpoint"], Is.EqualTo(served.LocalEndpoint));
                Assert.That(fields["at"].Type, Is.EqualTo(JTokenType.Integer));
                Assert.That((string)fields["message"], Does.Contain("tether-serve").And.Contain("\"tether serve\""));
                using (var second = host.Connect())
                {
                    Assert.That(second.Hello(host.Token, client: "second-agent")["result"], Is.Not.Null);
                    served.ExpectClosed();
                    // The evicted "tether serve" is not told to use tether serve.
                    var servedBye = (JObject)served.Seen.Last()["params"];
                    Assert.That((string)servedBye["reason"], Is.EqualTo("evicted"));
                    Assert.That((string)servedBye["newClientEndpoint"], Is.EqualTo(second.LocalEndpoint));
                    Assert.That((string)servedBye["message"], Does.Contain("second-agent").And.Not.Contain("\"tether serve\""));
                    second.Request("p", "ping");
                    Assert.That(second.ResponseTo("p")["result"], Is.Not.Null);
                }
            }
        }
    }
}
