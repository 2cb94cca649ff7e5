using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Host;
using Tether.Core.Runtime;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Host
{
    /// <summary>host/status and the agent of calls/start (protocol.md §7.4, §7.16).</summary>
    [TestFixture]
    public class HostStatusTests
    {
        private static readonly JObject Agent = new JObject { ["name"] = "claude-code", ["version"] = "2.1" };

        [Test]
        public void ListsTheConnectionsAndTheCallsInFlightWithTheirAgentsWhileTheMainThreadIsBlocked()
        {
            using (var started = new ManualResetEventSlim())
            using (var release = new ManualResetEventSlim())
            using (var host = TestHost.Start())
            {
                host.Host.Tools.Add(HostTools.Blocking("build", started, release));
                host.Host.Tools.Add(HostTools.Echo());
                using (var agent = host.Authenticated("tether-serve"))
                using (var other = host.Authenticated("tether-call"))
                {
                    agent.Request("b", "calls/start", new JObject { ["callId"] = "b1", ["tool"] = "build", ["agent"] = Agent });
                    Assert.That(started.Wait(5000), Is.True, "the tool is running on the main thread");
                    other.Request("q", "calls/start", new JObject { ["callId"] = "q1", ["tool"] = "echo", ["agent"] = new JObject { ["name"] = "tether-call" } });
                    other.Request(1, "calls/status", new JObject { ["callId"] = "q1" });
                    Assert.That((string)other.ResponseTo(1)["result"]["state"], Is.EqualTo("queued"));

                    other.Request(2, "host/status");
                    var status = (JObject)other.ResponseTo(2)["result"];
                    Assert.That((string)status["state"], Is.EqualTo("ready"));
                    Assert.That((long)status["since"], Is.GreaterThan(0).And.LessThanOrEqualTo(HostCore.NowMs()));
                    Assert.That(status["connections"].Select(c => (string)c["client"]["name"]), Is.EqualTo(new[] { "tether-serve", "tether-call" }));
                    Assert.That(status["connections"].Select(c => (string)c["connectionId"]), Is.EqualTo(new[] { "c1", "c2" }));
                    Assert.That((string)status["connections"][0]["endpoint"], Is.EqualTo(agent.LocalEndpoint));
                    var calls = (JArray)status["calls"];
                    Assert.That(calls.Select(c => (string)c["callId"] + ":" + (string)c["state"]), Is.EqualTo(new[] { "b1:running", "q1:queued" }), status.ToString());
                    Assert.That(JToken.DeepEquals(calls[0]["agent"], Agent), Is.True, calls[0].ToString());
                    Assert.That((string)calls[1]["agent"]["name"], Is.EqualTo("tether-call"));
                    Assert.That((int)calls[1]["position"], Is.EqualTo(0));
                    Assert.That(status["unknownOutcomes"], Is.Empty);
                    Assert.That(status["omitted"], Is.Null, "nothing left out");

                    other.Request(3, "calls/status", new JObject { ["callId"] = "b1" });
                    Assert.That(JToken.DeepEquals(other.ResponseTo(3)["result"]["agent"], Agent), Is.True, "calls/status says the agent too");
                    release.Set();
                    Assert.That(agent.ResponseTo("b")["result"], Is.Not.Null);
                    Assert.That(other.ResponseTo("q")["result"], Is.Not.Null);
                    other.Request(4, "host/status");
                    Assert.That(other.ResponseTo(4)["result"]["calls"], Is.Empty, "finished calls leave the list");
                }
            }
        }

        [Test]
        public void ListsCallsInterruptedByARestartAsUnknownOutcomesAndLoadsJournalsWrittenWithoutAgents()
        {
            var dir = Path.Combine(Path.GetTempPath(), "tether-status-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            var journal = Path.Combine(dir, "journal.jsonl");
            var now = HostCore.NowMs();
            var withAgent = new JournalEntry { CallId = "r1", Tool = "build", ArgsHash = "h1", Lane = "c1", State = CallStates.Running, QueuedAt = now - 2000, StartedAt = now - 1000, Agent = Agent };
            var without = new JournalEntry { CallId = "r2", Tool = "build", ArgsHash = "h2", Lane = "c1", State = CallStates.Running, QueuedAt = now - 500, StartedAt = now - 400 };
            File.WriteAllText(journal, withAgent.ToJson().ToString(Newtonsoft.Json.Formatting.None) + "\n" + without.ToJson().ToString(Newtonsoft.Json.Formatting.None) + "\n");
            using (var host = TestHost.Start(o => o.JournalPath = journal, dir: dir))
            using (var peer = host.Authenticated())
            {
                peer.Request(1, "host/status");
                var unknown = (JArray)peer.ResponseTo(1)["result"]["unknownOutcomes"];
                Assert.That(unknown.Select(c => (string)c["callId"]).OrderBy(id => id), Is.EqualTo(new[] { "r1", "r2" }));
                var r1 = unknown.First(c => (string)c["callId"] == "r1");
                Assert.That((string)r1["state"], Is.EqualTo("interrupted"));
                Assert.That((string)r1["error"]["code"], Is.EqualTo(ErrorCodes.OutcomeUnknown));
                Assert.That(JToken.DeepEquals(r1["agent"], Agent), Is.True, r1.ToString());
                Assert.That(unknown.First(c => (string)c["callId"] == "r2")["agent"], Is.Null, "an entry journaled without an agent has none");
            }
        }

        [Test]
        public void LogsWhichAgentCalledWhichToolAndRefusesAMalformedAgent()
        {
            var log = new RecordingLog();
            using (var host = TestHost.Start(o => o.Log = log))
            {
                host.Host.Tools.Add(HostTools.Echo());
                using (var peer = host.Authenticated())
                {
                    peer.Request(1, "calls/start", new JObject { ["callId"] = "e1", ["tool"] = "echo", ["agent"] = Agent });
                    Assert.That(peer.ResponseTo(1)["result"], Is.Not.Null);
                    peer.Request(2, "calls/start", new JObject { ["callId"] = "e2", ["tool"] = "echo", ["arguments"] = new JObject { ["x"] = 1 } });
                    Assert.That(peer.ResponseTo(2)["result"], Is.Not.Null);
                    Assert.That(log.Infos, Does.Contain("[tether] claude-code 2.1 called echo (callId e1)"));
                    Assert.That(log.Infos, Does.Contain("[tether] an agent called echo (callId e2)"));

                    peer.Request(3, "calls/start", new JObject { ["callId"] = "e3", ["tool"] = "echo", ["agent"] = new JObject { ["version"] = "1" } });
                    var refused = peer.ResponseTo(3);
                    Assert.That((string)refused["error"]["data"]["code"], Is.EqualTo(ErrorCodes.InvalidParams), refused.ToString());
                    Assert.That((string)refused["error"]["data"]["field"], Is.EqualTo("agent.name"));
                }
            }
        }

        private sealed class RecordingLog : IHostLog
        {
            private readonly List<string> _infos = new List<string>();

            public List<string> Infos
            {
                get { lock (_infos) return _infos.ToList(); }
            }

            public void Info(string message)
            {
                lock (_infos) _infos.Add(message);
            }

            public void Warning(string message) { }
            public void Error(string message) { }
        }
    }
}
