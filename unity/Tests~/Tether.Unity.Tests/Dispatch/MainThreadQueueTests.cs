using System;
using System.Collections.Generic;
using System.Threading;
using NUnit.Framework;
using Tether.Unity.Dispatch;

namespace Tether.Unity.Tests.Dispatch
{
    [TestFixture]
    public class MainThreadQueueTests
    {
        [Test]
        public void RunsJobsInTheOrderPostedOnlyWhenDrained()
        {
            var ran = new List<int>();
            var queue = new MainThreadQueue(null, null);
            for (var i = 0; i < 5; i++)
            {
                var n = i;
                queue.Post(() => ran.Add(n));
            }
            Assert.That(ran, Is.Empty, "Post never runs the work inline");
            Assert.That(queue.Drain(), Is.EqualTo(5));
            Assert.That(ran, Is.EqualTo(new[] { 0, 1, 2, 3, 4 }));
            Assert.That(queue.Pending, Is.Zero);
        }

        [Test]
        public void AJobThatThrowsIsReportedAndTheNextOneRuns()
        {
            var errors = new List<Exception>();
            var ran = new List<string>();
            var queue = new MainThreadQueue(null, errors.Add);
            queue.Post(() => ran.Add("first"));
            queue.Post(() => throw new InvalidOperationException("boom"));
            queue.Post(() => ran.Add("third"));
            queue.Drain();
            Assert.That(ran, Is.EqualTo(new[] { "first", "third" }));
            Assert.That(errors, Has.Count.EqualTo(1));
            Assert.That(errors[0].Message, Is.EqualTo("boom"));
        }

        [Test]
        public void EveryPostWakesTheEditorAndAFailingWakerLosesNoJob()
        {
            var wakes = 0;
            var errors = new List<Exception>();
            var queue = new MainThreadQueue(() =>
            {
                wakes++;
                if (wakes == 2) throw new InvalidOperationException("waker down");
            }, errors.Add);
            var ran = 0;
            queue.Post(() => ran++);
            queue.Post(() => ran++);
            queue.Post(() => ran++);
            Assert.That(wakes, Is.EqualTo(3));
            Assert.That(errors, Has.Count.EqualTo(1));
            queue.Drain();
            Assert.That(ran, Is.EqualTo(3));
        }

        [Test]
        public void JobsPostedByAJobWaitForTheNextTick()
        {
            var queue = new MainThreadQueue(null, null);
            var ran = 0;
            Action again = null;
            again = () =>
            {
                ran++;
                queue.Post(again);
            };
            queue.Post(again);
            Assert.That(queue.Drain(), Is.EqualTo(1), "a job that posts itself does not hold the editor in one tick");
            Assert.That(queue.Pending, Is.EqualTo(1));
            queue.Drain();
            Assert.That(ran, Is.EqualTo(2));
        }

        [Test]
        public void ATickStopsOnceItsBudgetIsSpent()
        {
            var queue = new MainThreadQueue(null, null);
            queue.Post(() => Thread.Sleep(30));
            queue.Post(() => { });
            Assert.That(queue.Drain(budgetMs: 10), Is.EqualTo(1));
            Assert.That(queue.Pending, Is.EqualTo(1));
        }

        [Test]
        public void JobsPostedFromManyThreadsAllRunOnTheDrainingThread()
        {
            var queue = new MainThreadQueue(null, null);
            var drainer = Thread.CurrentThread.ManagedThreadId;
            var onDrainer = 0;
            var threads = new List<Thread>();
            for (var t = 0; t < 4; t++)
            {
                var thread = new Thread(() =>
                {
                    for (var i = 0; i < 250; i++) queue.Post(() => { if (Thread.CurrentThread.ManagedThreadId == drainer) onDrainer++; });
                });
                threads.Add(thread);
                thread.Start();
            }
            threads.ForEach(thread => Assert.That(thread.Join(TimeSpan.FromSeconds(10)), Is.True));
            queue.Drain();
            Assert.That(onDrainer, Is.EqualTo(1000));
        }
    }
}
