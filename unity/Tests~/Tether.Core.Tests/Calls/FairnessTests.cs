using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Scheduling (protocol.md §8.8): one call at a time on the main thread, lanes per connection taking turns.</summary>
    [TestFixture]
    public class FairnessTests
    {
        private EngineHarness _h;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _h.AddGated("work");
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        [Test]
        public void LanesTakeTurnsSoAClientWithManyCallsCannotStarveOneWithOneAndPositionsSaySo()
        {
            _h.Life("A");
            var busy = _h.Observer("busy");
            var quiet = _h.Observer("quiet");
            var calls = new[] { _h.Start("b0", "work", new JObject { ["n"] = 0 }, busy) }.ToList();
            _h.WaitForRuns(1);
            for (var i = 1; i <= 3; i++) calls.Add(_h.Start("b" + i, "work", new JObject { ["n"] = i }, busy));
            calls.Add(_h.Start("q1", "work", new JObject { ["n"] = 10 }, quiet));

            Assert.That(_h.Status("b0")["position"], Is.Null, "the running call has no position");
            Assert.That(new[] { "b1", "q1", "b2", "b3" }.Select(id => (int)_h.Status(id)["position"]), Is.EqualTo(new[] { 0, 1, 2, 3 }));
            // A call keeps its lane after its connection closes.
            _h.OnLoop(() => _h.Engine.Detach(busy));
            var started = 1;
            foreach (var id in new[] { "b0", "b1", "q1", "b2", "b3" })
            {
                _h.Release(id);
                if (++started <= 5) _h.WaitForRuns(started);
            }
            foreach (var call in calls) Result(call);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:b0", "A:b1", "A:q1", "A:b2", "A:b3" }));
        }

        [Test]
        public void RunsOneMainThreadCallAtATimeAndOffThreadToolsBesideIt()
        {
            _h.AddGated("fetch", mainThread: false);
            _h.Life("A");
            var first = _h.Start("m1", "work", new JObject { ["n"] = 1 });
            var second = _h.Start("m2", "work", new JObject { ["n"] = 2 });
            _h.WaitForRuns(1);
            // Off the main thread: runs while m1 holds the main-thread turn, and while the thread itself is blocked.
            using (_h.Main.Block())
            {
                var fetch = _h.Start("f", "fetch");
                _h.WaitForRuns(2);
                _h.Release("f");
                Assert.That((string)Result(fetch)["result"]["content"][0]["text"], Is.EqualTo("done"));
            }
            Assert.That((string)_h.Status("m2")["state"], Is.EqualTo("queued"));
            _h.Release("m1");
            _h.WaitForRuns(3);
            _h.Release("m2");
            Result(first);
            Result(second);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:m1", "A:f", "A:m2" }));
        }
    }
}
