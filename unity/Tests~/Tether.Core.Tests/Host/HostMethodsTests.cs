using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Host
{
    /// <summary>The methods of protocol.md §7 as an authenticated connection is served them.</summary>
    [TestFixture]
    public class HostMethodsTests
    {
        private static void AssertError(JObject response, string code)
        {
            Assert.That(response["error"], Is.Not.Null, response.ToString());
            Assert.That((string)response["error"]["data"]["code"], Is.EqualTo(code), response.ToString());
        }

        [Test]
        public void PingToolsListStatusAndCancelAreAnsweredWhileTheMainThreadIsBlocked()
        {
            using (var started = new ManualResetEventSlim())
            using (var release = new ManualResetEventSlim())
            using (var host = TestHost.Start())
            {
                host.Host.Tools.Add(HostTools.Blocking("build", started, release));
                using (var peer = host.Authenticated())
                {
                    peer.Request("start", "calls/start", new JObject { ["callId"] = "b1", ["tool"] = "build" });
                    Assert.That(started.Wait(5000), Is.True, "the tool is running on the main thread");
                    peer.Request(1, "ping");
                    Assert.That(JToken.DeepEquals(peer.ResponseTo(1)["result"], new JObject()), Is.True);
                    peer.Request(2, "tools/list");
                    Assert.That((string)peer.ResponseTo(2)["result"]["tools"][0]["name"], Is.EqualTo("build"));
                    peer.Request(3, "calls/status", new JObject { ["callId"] = "b1" });
                    Assert.That((string)peer.ResponseTo(3)["result"]["state"], Is.EqualTo("running"));
                    peer.Request(4, "calls/cancel", new JObject { ["callId"] = "b1" });
                    Assert.That((string)peer.ResponseTo(4)["result"]["callId"], Is.EqualTo("b1"));
                    release.Set();
                    var outcome = peer.ResponseTo("start");
                    Assert.That(outcome["result"] ?? outcome["error"], Is.Not.Null, outcome.ToString());
                }
            }
        }

        [Test]
        public void RunsACallAndAnswersWithItsResult()
        {
            using (var host = TestHost.Start())
            {
                host.Host.Tools.Add(HostTools.Echo());
                using (var peer = host.Authenticated())
                {
                    peer.Request(1, "calls/start", new JObject { ["callId"] = "e1", ["tool"] = "echo", ["arguments"] = new JObject { ["a"] = 1 } });
                    var result = peer.ResponseTo(1)["result"];
                    Assert.That((string)result["callId"], Is.EqualTo("e1"));
                    Assert.That((bool)result["replayed"], Is.False);
                    Assert.That((string)result["result"]["content"][0]["text"], Is.EqualTo("echo {\"a\":1}"));
                    peer.Request(2, "calls/start", new JObject { ["callId"] = "e1", ["tool"] = "echo", ["arguments"] = new JObject { ["a"] = 1 }, ["attachOnly"] = true });
                    Assert.That((bool)peer.ResponseTo(2)["result"]["replayed"], Is.True);
                    peer.Request(3, "calls/status", new JObject { ["callId"] = "nope" });
                    AssertError(peer.ResponseTo(3), ErrorCodes.UnknownCall);
                }
            }
        }

        [Test]
        public void AnswersBadParamsWithInvalidParamsNamingMethodFieldAndIssues()
        {
            var cases = new (string method, JObject parameters, string field)[]
            {
                ("calls/start", new JObject { ["tool"] = "echo" }, "callId"),
                ("calls/start", new JObject { ["callId"] = new string('c', 201), ["tool"] = "echo" }, "callId"),
                ("calls/start", new JObject { ["callId"] = "", ["tool"] = "echo" }, "callId"),
                ("calls/start", new JObject { ["callId"] = "x", ["tool"] = "" }, "tool"),
                ("calls/start", new JObject { ["callId"] = "x", ["tool"] = "echo", ["arguments"] = new JArray() }, "arguments"),
                ("calls/start", new JObject { ["callId"] = "x", ["tool"] = "echo", ["deadlineMs"] = 0 }, "deadlineMs"),
                ("calls/start", new JObject { ["callId"] = "x", ["tool"] = "echo", ["deadlineMs"] = 1.5 }, "deadlineMs"),
                ("calls/start", new JObject { ["callId"] = "x", ["tool"] = "echo", ["attachOnly"] = "yes" }, "attachOnly"),
                ("calls/status", new JObject(), "callId"),
                ("calls/cancel", new JObject { ["callId"] = "x", ["reason"] = 5 }, "reason"),
                ("resources/read", new JObject { ["uri"] = 5 }, "uri"),
                ("resources/subscribe", new JObject(), "uri"),
                ("prompts/get", new JObject { ["name"] = "p", ["arguments"] = new JObject { ["x"] = 1 } }, "arguments.x"),
                ("completion/complete", new JObject { ["argument"] = new JObject { ["name"] = "a", ["value"] = "" } }, "ref"),
                ("completion/complete", new JObject { ["ref"] = new JObject { ["type"] = "ref/other" }, ["argument"] = new JObject { ["name"] = "a", ["value"] = "" } }, "ref.type"),
            };
            using (var host = TestHost.Start())
            using (var peer = host.Authenticated())
            {
                int id = 0;
                foreach (var (method, parameters, field) in cases)
                {
                    peer.Request(++id, method, parameters);
                    var answer = peer.ResponseTo(id);
                    AssertError(answer, ErrorCodes.InvalidParams);
                    var data = answer["error"]["data"];
                    Assert.That((string)data["field"], Is.EqualTo(field), method + " " + parameters);
                    Assert.That((string)data["method"], Is.EqualTo(method));
                    Assert.That((string)data["issues"][0]["path"], Is.EqualTo(field));
                    Assert.That((string)data["issues"][0]["message"], Is.Not.Empty);
                    Assert.That((string)answer["error"]["message"], Does.StartWith($"Invalid params for \"{method}\": {field}: "));
                }
                peer.Request(++id, "calls/start", new JArray());
                Assert.That((string)peer.ResponseTo(id)["error"]["data"]["field"], Is.EqualTo("(params)"));
                Assert.That(peer.IsClosed, Is.False, "bad params keep the connection");
            }
        }

        [Test]
        public void AnswersUnknownMethodsAndIgnoresUnknownNotifications()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Authenticated())
            {
                peer.Notify("notifications/whatever");
                peer.Request(1, "tools/call");
                var answer = peer.ResponseTo(1);
                AssertError(answer, ErrorCodes.MethodNotFound);
                Assert.That((string)answer["error"]["data"]["method"], Is.EqualTo("tools/call"));
                Assert.That(peer.Seen.Count, Is.EqualTo(2), "the hello result and this answer");
            }
        }

        [Test]
        public void FollowsAtMost1024ResourcesAndTellsSubscribersOnly()
        {
            using (var host = TestHost.Start())
            using (var subscriber = host.Authenticated())
            using (var other = host.Authenticated())
            {
                var frames = new List<byte>();
                for (int i = 0; i < 1024; i++)
                    frames.AddRange(FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = i, ["method"] = "resources/subscribe", ["params"] = new JObject { ["uri"] = "scene://" + i } }, long.MaxValue));
                subscriber.Write(frames.ToArray());
                Assert.That(JToken.DeepEquals(subscriber.ResponseTo(1023)["result"], new JObject()), Is.True);
                subscriber.Request("over", "resources/subscribe", new JObject { ["uri"] = "scene://more" });
                var refused = subscriber.ResponseTo("over");
                AssertError(refused, ErrorCodes.InvalidParams);
                Assert.That((int)refused["error"]["data"]["limit"], Is.EqualTo(1024));
                subscriber.Request("again", "resources/subscribe", new JObject { ["uri"] = "scene://5" });
                Assert.That(subscriber.ResponseTo("again")["result"], Is.Not.Null, "a URI already followed is always fine");
                subscriber.Request("drop", "resources/unsubscribe", new JObject { ["uri"] = "scene://7" });
                subscriber.ResponseTo("drop");
                subscriber.Request("room", "resources/subscribe", new JObject { ["uri"] = "scene://more" });
                Assert.That(subscriber.ResponseTo("room")["result"], Is.Not.Null);

                host.Host.NotifyResourceUpdated("scene://5");
                host.Host.NotifyResourceUpdated("scene://7");
                Assert.That((string)subscriber.NotificationOf("notifications/resources/updated")["params"]["uri"], Is.EqualTo("scene://5"));
                other.Request("p", "ping");
                other.ResponseTo("p");
                subscriber.Request("p", "ping");
                subscriber.ResponseTo("p");
                Assert.That(other.Seen.Count(m => (string)m["method"] == "notifications/resources/updated"), Is.Zero);
                Assert.That(subscriber.Seen.Count(m => (string)m["method"] == "notifications/resources/updated"), Is.EqualTo(1));
            }
        }

        [Test]
        public void AnnouncesListChangesAndStatesToAuthenticatedConnections()
        {
            using (var host = TestHost.Start())
            using (var stranger = host.Connect())
            using (var peer = host.Authenticated())
            {
                host.Host.Tools.Add(HostTools.Echo("added"));
                Assert.That(JToken.DeepEquals(peer.NotificationOf("notifications/tools/list_changed")["params"], new JObject()), Is.True);
                host.Host.Catalog.AddResource(new JObject { ["uri"] = "scene://h", ["name"] = "h" }, uri => Task.FromResult(new JArray()));
                peer.NotificationOf("notifications/resources/list_changed");
                host.Host.Catalog.AddPrompt(new JObject { ["name"] = "fix" }, arguments => Task.FromResult(new JObject { ["messages"] = new JArray() }));
                peer.NotificationOf("notifications/prompts/list_changed");
                host.Host.SetState("compiling", 8000);
                var state = peer.NotificationOf("notifications/host/state")["params"];
                Assert.That((string)state["state"], Is.EqualTo("compiling"));
                Assert.That((long)state["expectedMs"], Is.EqualTo(8000));
                Assert.That(state["at"].Type, Is.EqualTo(JTokenType.Integer));
                Assert.That(host.Host.State, Is.EqualTo("compiling"));
                using (var late = host.Connect())
                    Assert.That((string)late.Hello(host.Token)["result"]["state"], Is.EqualTo("compiling"));
                peer.Request("l", "resources/list");
                Assert.That((string)peer.ResponseTo("l")["result"]["resources"][0]["uri"], Is.EqualTo("scene://h"));
                peer.Request("r", "resources/read", new JObject { ["uri"] = "scene://nothing" });
                AssertError(peer.ResponseTo("r"), ErrorCodes.NotFound);
                Assert.That(stranger.Seen, Is.Empty, "nothing is sent before the hello");
                Assert.Throws<System.ArgumentException>(() => host.Host.SetState("sleeping"));
            }
        }
    }
}
