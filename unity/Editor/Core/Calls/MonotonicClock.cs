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
        public static long NowMs() => Stopwatch.GetTimestamp() * 1000 / Stopwatch.Frequency;
    }
}
