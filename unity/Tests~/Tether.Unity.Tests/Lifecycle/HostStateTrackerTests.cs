using System.Collections.Generic;
using NUnit.Framework;
using Tether.Unity.Lifecycle;

namespace Tether.Unity.Tests.Lifecycle
{
    [TestFixture]
    public class HostStateTrackerTests
    {
        private List<string> _published;
        private HostStateTracker _tracker;

        [SetUp]
        public void NewTracker()
        {
            _published = new List<string>();
            _tracker = new HostStateTracker((state, ms) => _published.Add(state + (ms != null ? " " + ms : "")));
        }

        [Test]
        public void PublishesChangesOnly()
        {
            _tracker.SetPlaying(false);
            Assert.That(_published, Is.Empty, "ready is where it starts");
            _tracker.SetPlaying(true);
            _tracker.SetPlaying(true);
            Assert.That(_published, Is.EqualTo(new[] { "playing" }));
        }

        [Test]
        public void CompilingWinsOverPlayingAndCarriesItsEstimate()
        {
            _tracker.SetPlaying(true);
            _tracker.SetCompiling(true, 1200);
            _tracker.SetCompiling(false);
            _tracker.SetPlaying(false);
            Assert.That(_published, Is.EqualTo(new[] { "playing", "compiling 1200", "playing", "ready" }));
        }

        [Test]
        public void NothingIsPublishedOnceTheDomainGoesAway()
        {
            _tracker.End("reloading");
            _tracker.SetPlaying(true);
            Assert.That(_published, Is.Empty);
            Assert.That(_tracker.State, Is.EqualTo("reloading"));
        }
    }
}
