using System.Diagnostics;

namespace Tether.Core.Calls
{
    /// <summary>
    /// Milliseconds on a clock that never steps (Stopwatch's), for durations: how long a call has
    /// been silent. The wall clock (JournalClock) can be stepped back (NTP, a virtual machine or a
    /// laptop resumed), and a silence measured on it would hold heartbeats back that long.
    /// </summary>
    internal static class MonotonicClock
    {
        public static long NowMs() => ToMs(Stopwatch.GetTimestamp(), Stopwatch.Frequency);

        /// <summary>
        /// Ticks at <paramref name="frequency"/> a second, in milliseconds. Whole seconds and the rest
        /// apart: ticks × 1000 overflows a long after about 106 days of uptime at a nanosecond
        /// frequency (.NET on Linux and macOS), and every duration would then come out wrong.
        /// </summary>
        internal static long ToMs(long ticks, long frequency) => ticks / frequency * 1000 + ticks % frequency * 1000 / frequency;
    }
}
