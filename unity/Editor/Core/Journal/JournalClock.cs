using System;

namespace Tether.Core.Journal
{
    /// <summary>Epoch milliseconds, the unit of every time the protocol carries (queuedAt, startedAt, finishedAt).</summary>
    internal static class JournalClock
    {
        public static long NowMs() => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
    }
}
