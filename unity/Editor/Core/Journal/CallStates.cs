namespace Tether.Core.Journal
{
    /// <summary>The states of a call (protocol.md §8.1), as they are written on the wire and in the journal.</summary>
    public static class CallStates
    {
        public const string Queued = "queued";
        public const string Running = "running";
        public const string Completed = "completed";
        public const string Failed = "failed";
        public const string Cancelled = "cancelled";
        public const string Interrupted = "interrupted";

        /// <summary>True for the states a call never leaves: completed, failed, cancelled, interrupted.</summary>
        public static bool IsFinal(string state) =>
            state == Completed || state == Failed || state == Cancelled || state == Interrupted;

        /// <summary>True for the six states this protocol knows.</summary>
        public static bool IsKnown(string state) => state == Queued || state == Running || IsFinal(state);
    }
}
