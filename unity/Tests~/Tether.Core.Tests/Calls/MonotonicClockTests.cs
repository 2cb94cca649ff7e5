using NUnit.Framework;
using Tether.Core.Calls;

namespace Tether.Core.Tests.Calls
{
    /// <summary>The monotonic clock's ticks in milliseconds, whatever the uptime.</summary>
    [TestFixture]
    public class MonotonicClockTests
    {
        [TestCase(1_500_000_000L, 1_000_000_000L, 1_500L)]
        [TestCase(15_000_001L, 10_000_000L, 1_500L)]
        [TestCase(0L, 1_000_000_000L, 0L)]
        public void TurnsTicksIntoMilliseconds(long ticks, long frequency, long ms) =>
            Assert.That(MonotonicClock.ToMs(ticks, frequency), Is.EqualTo(ms));

        [Test]
        public void StaysRightPastAHundredAndSixDaysAtANanosecondFrequency()
        {
            // ticks × 1000 overflowed a long here: durations went wrong, or negative.
            const long frequency = 1_000_000_000L;
            var days200 = 200L * 24 * 3600 * frequency;
            Assert.That(MonotonicClock.ToMs(days200 + 250_000_000L, frequency), Is.EqualTo(200L * 24 * 3600 * 1000 + 250));
        }
    }
}
