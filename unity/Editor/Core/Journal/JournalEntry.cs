using Newtonsoft.Json.Linq;

namespace Tether.Core.Journal
{
    /// <summary>
    /// What the host knows about one callId (protocol.md §8.3): enough to answer a repeat, to
    /// refuse a conflicting one, and, after a reload, to tell a call that never started (run it)
    /// from one that was cut off (interrupted). Mutable: the call engine moves it through its
    /// states and saves it at each step. Owned by the host loop.
    /// </summary>
    public sealed class JournalEntry
    {
        public string CallId;
        public string Tool;
        /// <summary>The arguments as validated (defaults applied): what the tool runs with.</summary>
        public JObject Arguments = new JObject();
        /// <summary>Fingerprint of the tool and the canonical arguments as received: a repeat of the callId must carry the same ones.</summary>
        public string ArgsHash;
        /// <summary>The fairness lane (connection) the call was queued on; it keeps it after that connection closes.</summary>
        public string Lane;
        public string State = CallStates.Queued;
        public long QueuedAt;
        public long? StartedAt;
        public long? FinishedAt;
        public long? DeadlineMs;
        /// <summary>Set when this callId shares the execution of an identical call already in flight.</summary>
        public string AliasOf;
        /// <summary>The agent that asked for the call ({ name, version? }); null in journals written before it existed.</summary>
        public JObject Agent;
        /// <summary>
        /// Set when this callId withdrew from a shared execution that others still wanted
        /// (calls/cancel): the CANCELLED error its requests got ({ code, message, data }). An alias
        /// that withdrew ends cancelled with it, whatever the execution's outcome.
        /// </summary>
        public JObject Withdrawn;
        /// <summary>
        /// Set on a call a restart found queued (protocol.md §8.5): left by an editor that stopped,
        /// it runs only if a requester comes back for it within the grace, and is cleared when one
        /// does. Journaled, so that a domain reload during that grace does not make the next
        /// domain take it for a call its requesters are still waiting for.
        /// </summary>
        public bool LeftByRestart;
        /// <summary>
        /// Kept in memory only. Read-only calls need no durable record: running one again after a
        /// restart is harmless, and skipping the disk keeps them fast.
        /// </summary>
        public bool Volatile;
        /// <summary>The ToolResult, when completed. Shared, never modified once set.</summary>
        public JObject Result;
        /// <summary>The stored error ({ code, message, data }), when failed, cancelled or interrupted.</summary>
        public JObject Error;

        public bool IsFinal => CallStates.IsFinal(State);

        /// <summary>A copy of the fields; arguments, result and errors are shared (they are never modified in place).</summary>
        public JournalEntry Clone() => (JournalEntry)MemberwiseClone();

        /// <summary>The entry as one journal line's object (absent fields left out).</summary>
        public JObject ToJson()
        {
            var json = new JObject
            {
                ["callId"] = CallId,
                ["tool"] = Tool,
                ["arguments"] = Arguments ?? new JObject(),
                ["argsHash"] = ArgsHash,
                ["lane"] = Lane,
                ["state"] = State,
                ["queuedAt"] = QueuedAt,
            };
            if (StartedAt.HasValue) json["startedAt"] = StartedAt.Value;
            if (FinishedAt.HasValue) json["finishedAt"] = FinishedAt.Value;
            if (DeadlineMs.HasValue) json["deadlineMs"] = DeadlineMs.Value;
            if (AliasOf != null) json["aliasOf"] = AliasOf;
            if (Agent != null) json["agent"] = Agent;
            if (Withdrawn != null) json["withdrawn"] = Withdrawn;
            if (LeftByRestart) json["leftByRestart"] = true;
            if (Volatile) json["volatile"] = true;
            if (Result != null) json["result"] = Result;
            if (Error != null) json["error"] = Error;
            return json;
        }

        /// <summary>Reads a journal line's object; null when it is not a record (no callId, or no state this protocol knows).</summary>
        public static JournalEntry FromJson(JObject json)
        {
            if (json == null || json["callId"]?.Type != JTokenType.String) return null;
            var state = json["state"]?.Type == JTokenType.String ? (string)json["state"] : null;
            if (!CallStates.IsKnown(state)) return null;
            return new JournalEntry
            {
                CallId = (string)json["callId"],
                Tool = json["tool"]?.Type == JTokenType.String ? (string)json["tool"] : "",
                Arguments = json["arguments"] as JObject ?? new JObject(),
                ArgsHash = json["argsHash"]?.Type == JTokenType.String ? (string)json["argsHash"] : "",
                Lane = json["lane"]?.Type == JTokenType.String ? (string)json["lane"] : "",
                State = state,
                QueuedAt = NumberOf(json["queuedAt"]) ?? 0,
                StartedAt = NumberOf(json["startedAt"]),
                FinishedAt = NumberOf(json["finishedAt"]),
                DeadlineMs = NumberOf(json["deadlineMs"]),
                AliasOf = json["aliasOf"]?.Type == JTokenType.String ? (string)json["aliasOf"] : null,
                Agent = json["agent"] is JObject agent && agent["name"]?.Type == JTokenType.String ? agent : null,
                Withdrawn = json["withdrawn"] as JObject,
                LeftByRestart = json["leftByRestart"]?.Type == JTokenType.Boolean && (bool)json["leftByRestart"],
                Volatile = json["volatile"]?.Type == JTokenType.Boolean && (bool)json["volatile"],
                Result = json["result"] as JObject,
                Error = json["error"] as JObject,
            };
        }

        /// <summary>A whole number of milliseconds; null when absent, not a number, or outside a long's range (a damaged record, never an exception).</summary>
        private static long? NumberOf(JToken token)
        {
            if (!(token is JValue value)) return null;
            switch (value.Value)
            {
                case long whole:
                    return whole;
                case int small:
                    return small;
                case ulong large:
                    return large <= long.MaxValue ? (long?)(long)large : null;
                case System.Numerics.BigInteger big:
                    return big >= long.MinValue && big <= long.MaxValue ? (long?)(long)big : null;
                case double real:
                    // 2^63 is exactly representable; every double below it (and from -2^63) fits a long.
                    return real >= -9223372036854775808.0 && real < 9223372036854775808.0 ? (long?)(long)real : null;
                case decimal exact:
                    return exact >= long.MinValue && exact <= long.MaxValue ? (long?)(long)exact : null;
                default:
                    return null;
            }
        }
    }
}
