using System.IO;
using System.Linq;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Discovery;
using Tether.Core.Protocol;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Host
{
    /// <summary>tether/hello and what comes before it (protocol.md §5, §6, §14): every refusal is answered, then the connection closes.</summary>
    [TestFixture]
    public class HandshakeTests
    {
        private static void AssertError(JObject response, string code)
        {
            Assert.That(response["error"], Is.Not.Null, response.ToString());
            Assert.That((string)response["error"]["data"]["code"], Is.EqualTo(code), response.ToString());
        }

        [Test]
        public void AValidHelloReturnsEveryField()
        {
            using (var host = TestHost.Start(o => o.MaxConnections = 3))
            using (var peer = host.Connect())
            {
                var result = (JObject)peer.Hello(host.Token)["result"];
                Assert.That((int)result["protocolVersion"], Is.EqualTo(1));
                var identity = (JObject)result["host"];
                Assert.That((string)identity["instanceId"], Is.EqualTo(host.Host.InstanceId));
                Assert.That((string)identity["kind"], Is.EqualTo("test"));
                Assert.That((string)identity["name"], Is.EqualTo("Test"));
                Assert.That((string)identity["version"], Is.EqualTo("1.0.0"));
                Assert.That((string)identity["projectPath"], Is.EqualTo(host.Dir));
                Assert.That((int)identity["pid"], Is.EqualTo(System.Diagnostics.Process.GetCurrentProcess().Id));
                var capabilities = (JObject)result["capabilities"];
                Assert.That(JToken.DeepEquals(capabilities["tools"], new JObject { ["listChanged"] = true }), Is.True);
                Assert.That(JToken.DeepEquals(capabilities["resources"], new JObject { ["subscribe"] = true, ["listChanged"] = true }), Is.True);
                Assert.That(JToken.DeepEquals(capabilities["prompts"], new JObject { ["listChanged"] = true }), Is.True);
                Assert.That(JToken.DeepEquals(capabilities["completions"], new JObject()), Is.True);
                Assert.That((int)capabilities["maxConnections"], Is.EqualTo(3));
                Assert.That(JToken.DeepEquals(result["limits"], new JObject { ["maxFrameBytes"] = 64L << 20, ["maxHeaderBytes"] = 8192, ["frameTimeoutMs"] = 30000 }), Is.True);
                Assert.That((int)result["heartbeatMs"], Is.EqualTo(5000));
                Assert.That((string)result["state"], Is.EqualTo("ready"));
                Assert.That((string)result["connectionId"], Is.EqualTo("c1"));
                Assert.That((string)result["proof"]?["mac"], Is.Not.Null.And.Not.Empty, "the host proves it knows the token too");
                using (var second = host.Connect())
                    Assert.That((string)second.Hello(host.Token)["result"]["connectionId"], Is.EqualTo("c2"));
                peer.Request(2, "ping");
                Assert.That(JToken.DeepEquals(peer.ResponseTo(2)["result"], new JObject()), Is.True);
            }
        }

        [TestCase("ping")]
        [TestCase("tools/list")]
        public void ARequestBeforeTheHelloIsRefusedWithItsIdThenClosed(string method)
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                peer.Request(5, method);
                var answer = peer.ResponseTo(5);
                AssertError(answer, ErrorCodes.HandshakeRequired);
                Assert.That((string)answer["error"]["message"], Does.Not.Contain(host.Token));
                peer.ExpectClosed();
            }
        }

        [Test]
        public void ANotificationBeforeTheHelloIsRefusedWithIdNullThenClosed()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                peer.Notify("notifications/initialized");
                var answer = peer.Next();
                AssertError(answer, ErrorCodes.HandshakeRequired);
                Assert.That(answer["id"].Type, Is.EqualTo(JTokenType.Null));
                peer.ExpectClosed();
            }
        }

        [Test]
        public void CancellationsAndResponsesBeforeTheHelloAreAcceptedQuietly()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                peer.Notify("notifications/cancelled", new JObject { ["requestId"] = 1 });
                peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["result"] = new JObject() });
                Assert.That(peer.Hello(host.Token)["result"], Is.Not.Null);
                Assert.That(peer.Seen.Count, Is.EqualTo(1), "nothing but the hello result");
            }
        }

        [Test]
        public void NothingPipelinedBeforeTheHelloIsProcessedNorTheHelloAfterIt()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                var early = new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = "tools/list" };
                var hello = new JObject { ["jsonrpc"] = "2.0", ["id"] = 2, ["method"] = "tether/hello", ["params"] = RawPeer.HelloParams(host.Token) };
                peer.Write(FrameEncoder.Encode(early, long.MaxValue).Concat(FrameEncoder.Encode(hello, long.MaxValue)).ToArray());
                AssertError(peer.ResponseTo(1), ErrorCodes.HandshakeRequired);
                peer.ExpectClosed();
                Assert.That(peer.Seen.Count, Is.EqualTo(1));
            }
        }

        [Test]
        public void TheTokenItselfIsRefusedEvenWhenRightThenClosed()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                var answer = peer.HelloWithToken(host.Token);
                AssertError(answer, ErrorCodes.Unauthorized);
                var message = (string)answer["error"]["message"];
                Assert.That(message, Does.Contain("proof"));
                Assert.That(message, Does.Not.Contain(host.RecordsDir));
                Assert.That(message, Does.Not.Contain(host.Token));
                peer.ExpectClosed();
            }
        }

        [Test]
        public void AWrongTokenIsRefusedWithoutNamingTheRecordsFolderThenClosed()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                var answer = peer.Hello("not-the-token");
                AssertError(answer, ErrorCodes.Unauthorized);
                var message = (string)answer["error"]["message"];
                Assert.That(message, Does.Contain("TETHER_HOME/hosts"));
                Assert.That(message, Does.Not.Contain(host.RecordsDir));
                Assert.That(message, Does.Not.Contain(host.Token));
                peer.ExpectClosed();
            }
        }

        [Test]
        public void InvalidParamsAreRefusedNamingTheFieldThenClosed()
        {
            var cases = new (JObject parameters, string field)[]
            {
                (new JObject { ["token"] = "t", ["protocolVersion"] = 1 }, "client"),
                (new JObject { ["token"] = "t", ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = 5 } }, "client.name"),
                (new JObject { ["token"] = "t", ["protocolVersion"] = 1.5, ["client"] = new JObject { ["name"] = "x" } }, "protocolVersion"),
                (new JObject { ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = "x" } }, "token"),
                (new JObject { ["token"] = "t", ["proof"] = new JObject { ["nonce"] = new string('n', 16), ["mac"] = "m" }, ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = "x" } }, "token"),
                (new JObject { ["proof"] = new JObject { ["nonce"] = "short", ["mac"] = "m" }, ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = "x" } }, "proof.nonce"),
                (new JObject { ["token"] = "t", ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = "x" }, ["capabilities"] = new JObject { ["sampling"] = "yes" } }, "capabilities.sampling"),
            };
            using (var host = TestHost.Start())
            {
                foreach (var (parameters, field) in cases)
                {
                    using (var peer = host.Connect())
                    {
                        peer.Request(1, "tether/hello", parameters);
                        var answer = peer.ResponseTo(1);
                        AssertError(answer, ErrorCodes.InvalidParams);
                        Assert.That((string)answer["error"]["data"]["field"], Is.EqualTo(field), parameters.ToString());
                        Assert.That((string)answer["error"]["data"]["method"], Is.EqualTo("tether/hello"));
                        Assert.That(answer["error"]["data"]["issues"], Is.InstanceOf<JArray>());
                        peer.ExpectClosed();
                    }
                }
                using (var peer = host.Connect())
                {
                    peer.Request(1, "tether/hello", new JArray());
                    Assert.That((string)peer.ResponseTo(1)["error"]["data"]["field"], Is.EqualTo("(params)"));
                }
            }
        }

        [Test]
        public void AClientReadingLessThan64KiBIsRefusedAndTheHostServesOn()
        {
            using (var host = TestHost.Start())
            {
                using (var peer = host.Connect())
                {
                    var parameters = RawPeer.HelloParams(host.Token);
                    parameters["limits"] = new JObject { ["maxFrameBytes"] = 10 };
                    peer.Request(1, "tether/hello", parameters);
                    var answer = peer.ResponseTo(1);
                    AssertError(answer, ErrorCodes.InvalidParams);
                    Assert.That((string)answer["error"]["data"]["field"], Is.EqualTo("limits.maxFrameBytes"));
                    Assert.That((string)answer["error"]["message"], Does.Contain("at least 65536"));
                    peer.ExpectClosed();
                }
                using (var client = host.Authenticated())
                {
                    client.Request(2, "ping");
                    Assert.That(client.ResponseTo(2)["result"], Is.Not.Null);
                }
            }
        }

        [Test]
        public void AnUnsupportedVersionIsRefusedWithTheSupportedOnesThenClosed()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Connect())
            {
                peer.Request(1, "tether/hello", RawPeer.HelloParams(host.Token, 999));
                var answer = peer.ResponseTo(1);
                AssertError(answer, ErrorCodes.UnsupportedVersion);
                Assert.That(JToken.DeepEquals(answer["error"]["data"]["supported"], new JArray(1)), Is.True);
                Assert.That((int)answer["error"]["data"]["requested"], Is.EqualTo(999));
                peer.ExpectClosed();
            }
        }

        [Test]
        public void ASecondHelloIsAnInvalidRequestAndTheConnectionStays()
        {
            using (var host = TestHost.Start())
            using (var peer = host.Authenticated())
            {
                AssertError(peer.Hello(host.Token, "again"), ErrorCodes.InvalidRequest);
                peer.Request(3, "ping");
                Assert.That(peer.ResponseTo(3)["result"], Is.Not.Null);
            }
        }

        [Test]
        public void AProofIsAnsweredWithTheHostsOwnAndAReplayedOrWrongOneIsRefused()
        {
            using (var host = TestHost.Start())
            {
                var record = HostRecord.Parse(File.ReadAllText(HostRecords.PathOf(host.RecordsDir, host.Host.InstanceId)));
                Assert.That(record.Auth, Is.EqualTo("proof"));
                Assert.That(record.Token, Is.EqualTo(host.Token));
                var nonce = HostProof.NewNonce();
                using (var first = host.Connect())
                {
                    var result = first.HelloWithProof(record.Token, nonce)["result"];
                    Assert.That(HostProof.SecretsMatch((string)result["proof"]["mac"], HostProof.HostMac(record.Token, nonce)), Is.True);
                }
                using (var replay = host.Connect())
                {
                    AssertError(replay.HelloWithProof(record.Token, nonce), ErrorCodes.Unauthorized);
                    replay.ExpectClosed();
                }
                using (var wrong = host.Connect())
                {
                    var answer = wrong.HelloWithProof("not-the-token", HostProof.NewNonce());
                    AssertError(answer, ErrorCodes.Unauthorized);
                    Assert.That((string)answer["error"]["message"], Does.Not.Contain(host.RecordsDir));
                    wrong.ExpectClosed();
                }
                // A wrong proof does not use its nonce up: the right proof with it still works.
                var reused = HostProof.NewNonce();
                using (var wrong = host.Connect()) AssertError(wrong.HelloWithProof("not-the-token", reused), ErrorCodes.Unauthorized);
                using (var right = host.Connect()) Assert.That(right.HelloWithProof(record.Token, reused)["result"], Is.Not.Null);
            }
        }

        [Test]
        public void AGivenTokenIsKeptAndTheRecordSaysProofAsEveryV1HostsDoes()
        {
            using (var host = TestHost.Start(o => o.Token = "a-token-kept-across-reloads-000000"))
            {
                var record = HostRecord.Parse(File.ReadAllText(HostRecords.PathOf(host.RecordsDir, host.Host.InstanceId)));
                Assert.That(record.Auth, Is.EqualTo("proof"));
                Assert.That(record.Token, Is.EqualTo("a-token-kept-across-reloads-000000"));
                using (var peer = host.Connect()) Assert.That(peer.Hello("a-token-kept-across-reloads-000000")["result"], Is.Not.Null);
                // The token itself is refused as from any client (protocol.md §6.1).
                using (var peer = host.Connect()) AssertError(peer.HelloWithToken("a-token-kept-across-reloads-000000"), ErrorCodes.Unauthorized);
            }
        }

        [Test]
        public void AProofTakenUnderAGivenTokenIsRefusedByTheNextListenerAfterAReload()
        {
            // Unique per run: the memory of a given token's nonces lasts as long as the process.
            var token = "given-" + HostProof.NewToken();
            var dir = Path.Combine(Path.GetTempPath(), "tether-given-" + System.Guid.NewGuid().ToString("N"));
            var instanceId = System.Guid.NewGuid().ToString();
            var nonce = HostProof.NewNonce();
            var first = TestHost.Start(o => { o.Token = token; o.InstanceId = instanceId; }, dir: dir);
            try
            {
                using (var peer = first.Connect()) Assert.That(peer.HelloWithProof(token, nonce)["result"], Is.Not.Null);
                using (var replay = first.Connect()) AssertError(replay.HelloWithProof(token, nonce), ErrorCodes.Unauthorized);
                first.Host.BeginReload(1000);
            }
            finally
            {
                first.Dispose();
            }
            using (var next = TestHost.Start(o => { o.Token = token; o.InstanceId = instanceId; }, dir: dir))
            {
                // What was sent to whatever held the port in between opens no later listener.
                using (var replay = next.Connect())
                {
                    AssertError(replay.HelloWithProof(token, nonce), ErrorCodes.Unauthorized);
                    replay.ExpectClosed();
                }
                using (var fresh = next.Connect()) Assert.That(fresh.Hello(token)["result"], Is.Not.Null);
            }
        }

        [Test]
        public void AFrameOver64KiBBeforeTheHelloIsRefusedAtItsHeaderAndLargeOnesAreTakenAfter()
        {
            using (var host = TestHost.Start())
            {
                using (var stranger = host.Connect())
                {
                    stranger.Write($"Content-Length: {1024 * 1024}\r\n\r\n" + new string('x', 1000));
                    var answer = stranger.Next();
                    AssertError(answer, ErrorCodes.FrameTooLarge);
                    Assert.That(answer["id"].Type, Is.EqualTo(JTokenType.Null));
                    Assert.That((bool)answer["error"]["data"]["beforeHandshake"], Is.True);
                    Assert.That((long)answer["error"]["data"]["maxFrameBytes"], Is.EqualTo(65536));
                    Assert.That((long)answer["error"]["data"]["length"], Is.EqualTo(1024 * 1024));
                    stranger.ExpectClosed();
                }
                using (var client = host.Authenticated())
                {
                    client.Request(2, "tools/list", new JObject { ["cursor"] = new string('c', 300_000) });
                    Assert.That(client.ResponseTo(2)["result"]["tools"], Is.InstanceOf<JArray>());
                }
            }
        }

        [Test]
        public void AConnectionThatDoesNotSayHelloInTimeIsClosedWithoutAFrame()
        {
            using (var host = TestHost.Start(o => o.HandshakeTimeoutMs = 200))
            using (var peer = host.Connect())
            {
                peer.ExpectClosed();
                Assert.That(peer.Seen, Is.Empty);
            }
        }

        [Test]
        public void AtMostMaxPendingHandshakesStrangersAreHeldAndANewOneClosesTheOldest()
        {
            using (var host = TestHost.Start(o => { o.MaxPendingHandshakes = 2; o.HandshakeTimeoutMs = 120_000; }))
            using (var oldest = host.Connect())
            using (var next = host.Connect())
            {
                // Strangers holding every slot do not keep a client out: the oldest of them makes room.
                using (var client = host.Authenticated())
                {
                    oldest.ExpectClosed();
                    Assert.That(next.IsClosed, Is.False);
                    // An authenticated connection does not count: the next stranger fits beside "next".
                    using (var third = host.Connect())
                    using (var another = host.Authenticated())
                    {
                        next.ExpectClosed();
                        Assert.That(third.IsClosed, Is.False);
                        Assert.That(oldest.Seen, Is.Empty, "closed without a frame");
                    }
                }
            }
        }
    }
}
