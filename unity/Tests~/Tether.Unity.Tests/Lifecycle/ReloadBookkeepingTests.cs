using System;
using NUnit.Framework;
using Tether.Unity.Lifecycle;
using Tether.Unity.Tests.Support;
using UnityEditor;

namespace Tether.Unity.Tests.Lifecycle
{
    [TestFixture]
    public class ReloadBookkeepingTests
    {
        private long _now;

        [SetUp]
        public void FreshEditor()
        {
            UnityStandInState.Reset();
            _now = 1_700_000_000_000;
        }

        private ReloadBookkeeping NewDomain(ISessionStore store) => new ReloadBookkeeping(store, () => _now);

        [Test]
        public void TheInstanceIdSurvivesReloadsThroughSessionStateAndIsNewPerEditorProcess()
        {
            var first = NewDomain(new UnitySessionStore()).InstanceId;
            Assert.That(Guid.TryParse(first, out _), Is.True);
            Assert.That(NewDomain(new UnitySessionStore()).InstanceId, Is.EqualTo(first), "the next domain reads it back");
            SessionState.Reset(); // the editor quit and started again
            Assert.That(NewDomain(new UnitySessionStore()).InstanceId, Is.Not.EqualTo(first));
        }

        [Test]
        public void OnlyTheFirstDomainOfAnEditorProcessIsOneAfterARestart()
        {
            var first = NewDomain(new UnitySessionStore());
            Assert.That(first.FirstDomain, Is.True, "a fresh editor");
            _ = first.InstanceId; // the host is made
            Assert.That(NewDomain(new UnitySessionStore()).FirstDomain, Is.False, "after a domain reload");
            SessionState.Reset(); // the editor quit (or crashed) and started again
            Assert.That(NewDomain(new UnitySessionStore()).FirstDomain, Is.True);
        }

        [Test]
        public void ThePortIsRememberedForTheNextDomain()
        {
            Assert.That(NewDomain(new UnitySessionStore()).PreviousPort, Is.Zero, "a first start takes any free port");
            NewDomain(new UnitySessionStore()).RememberPort(53122);
            Assert.That(NewDomain(new UnitySessionStore()).PreviousPort, Is.EqualTo(53122));
        }

        [Test]
        public void AReloadIsMeasuredAcrossDomainsAndAnnouncedNextTime()
        {
            var store = new MemorySession();
            var old = NewDomain(store);
            Assert.That(old.ExpectedReloadMs, Is.EqualTo(ReloadBookkeeping.DefaultReloadMs));
            Assert.That(old.ReloadFinished(), Is.Null, "the editor just started: no reload to measure");
            old.ReloadStarting();
            _now += 4321;
            var next = NewDomain(store);
            Assert.That(next.ReloadFinished(), Is.EqualTo(4321));
            Assert.That(next.ExpectedReloadMs, Is.EqualTo(4321));
            Assert.That(NewDomain(store).ReloadFinished(), Is.Null, "measured once");
        }

        [Test]
        public void EstimatesAreKeptWithinBounds()
        {
            var store = new MemorySession();
            var books = NewDomain(store);
            books.ReloadStarting();
            _now += 3_600_000; // a debugger held the editor for an hour
            books.ReloadFinished();
            Assert.That(books.ExpectedReloadMs, Is.EqualTo(ReloadBookkeeping.MaxEstimateMs));
            books.CompileStarting();
            _now += 3;
            Assert.That(books.CompileFinished(), Is.EqualTo(3));
            Assert.That(books.ExpectedCompileMs, Is.EqualTo(ReloadBookkeeping.MinEstimateMs));
        }

        [Test]
        public void CompilationsAreMeasuredForTheNextCompilingState()
        {
            var books = NewDomain(new MemorySession());
            Assert.That(books.ExpectedCompileMs, Is.Null, "nothing measured yet: no expectedMs rather than a guess");
            Assert.That(books.CompileFinished(), Is.Null);
            books.CompileStarting();
            _now += 2500;
            Assert.That(books.CompileFinished(), Is.EqualTo(2500));
            Assert.That(books.ExpectedCompileMs, Is.EqualTo(2500));
        }
    }
}
