using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using Tether.Unity.Dispatch;
using Tether.Unity.Tests.Support;
using UnityEditor;

namespace Tether.Unity.Tests.Dispatch
{
    /// <summary>The dispatcher against the stand-ins: EditorApplication.update is a real delegate these tests invoke as Unity would.</summary>
    [TestFixture]
    public class MainThreadDispatcherTests
    {
        [SetUp]
        public void FreshEditor() => UnityStandInState.Reset();

        [Test]
        public void JobsRunInOrderOnTheNextEditorUpdate()
        {
            var ran = new List<int>();
            using (var dispatcher = new MainThreadDispatcher(new RecordingLog(), null))
            {
                dispatcher.Post(() => ran.Add(1));
                dispatcher.Post(() => ran.Add(2));
                Assert.That(ran, Is.Empty);
                EditorApplication.update();
                Assert.That(ran, Is.EqualTo(new[] { 1, 2 }));
            }
        }

        [Test]
        public void AFailingJobIsLoggedAndTheEditorUpdateGoesOn()
        {
            var log = new RecordingLog();
            var ran = false;
            using (var dispatcher = new MainThreadDispatcher(log, null))
            {
                dispatcher.Post(() => throw new System.InvalidOperationException("tool blew up"));
                dispatcher.Post(() => ran = true);
                Assert.DoesNotThrow(() => EditorApplication.update());
                // A cold first exception can spend a tick's budget: the next job then runs on the next tick.
                for (var ticks = 0; dispatcher.Pending > 0 && ticks < 10; ticks++) EditorApplication.update();
            }
            Assert.That(ran, Is.True);
            Assert.That(log.Errors.Single(), Does.Contain("tool blew up"));
        }

        [Test]
        public void PostingOnTheMainThreadQueuesAPlayerLoopUpdate()
        {
            var signals = 0;
            using (var dispatcher = new MainThreadDispatcher(new RecordingLog(), () => Interlocked.Increment(ref signals)))
            {
                dispatcher.Post(() => { });
                Assert.That(EditorApplication.QueuedPlayerLoopUpdates, Is.EqualTo(1));
                Assert.That(signals, Is.Zero, "the main thread uses the public API");
            }
        }

        [Test]
        public void PostingFromAnotherThreadSignalsATickAndNeverCallsTheMainThreadApi()
        {
            var signals = 0;
            var ran = false;
            using (var dispatcher = new MainThreadDispatcher(new RecordingLog(), () => Interlocked.Increment(ref signals)))
            {
                Assert.That(Task.Run(() => dispatcher.Post(() => ran = true)).Wait(5000), Is.True);
                Assert.That(signals, Is.EqualTo(1));
                Assert.That(EditorApplication.QueuedPlayerLoopUpdates, Is.Zero, "QueuePlayerLoopUpdate is a main-thread-only binding");
                EditorApplication.update();
            }
            Assert.That(ran, Is.True);
        }

        [Test]
        public void WithoutSignalTickAJobFromAnotherThreadStillRunsOnTheNextUpdate()
        {
            var ran = false;
            using (var dispatcher = new MainThreadDispatcher(new RecordingLog(), EditorTickSignal.Create(out var note)))
            {
                Assert.That(note, Does.Contain("SignalTick"), "the stand-ins have no SignalTick: the fallback is taken and said");
                Assert.That(Task.Run(() => dispatcher.Post(() => ran = true)).Wait(5000), Is.True);
                EditorApplication.update();
            }
            Assert.That(ran, Is.True);
        }

        [Test]
        public void LeftoverWorkAsksForTheNextTick()
        {
            using (var dispatcher = new MainThreadDispatcher(new RecordingLog(), null))
            {
                dispatcher.Post(() => dispatcher.Post(() => { }));
                var before = EditorApplication.QueuedPlayerLoopUpdates;
                EditorApplication.update();
                Assert.That(dispatcher.Pending, Is.EqualTo(1));
                Assert.That(EditorApplication.QueuedPlayerLoopUpdates, Is.GreaterThan(before));
            }
        }

        [Test]
        public void ADisposedDispatcherNoLongerListensToUpdates()
        {
            var ran = false;
            var dispatcher = new MainThreadDispatcher(new RecordingLog(), null);
            dispatcher.Post(() => ran = true);
            dispatcher.Dispose();
            Assert.That(EditorApplication.update, Is.Null);
            Assert.That(ran, Is.False);
        }
    }
}
