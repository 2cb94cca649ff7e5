using Newtonsoft.Json.Linq;
using Tether.Core.Journal;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>The shapes a call is reported in: calls/start results and errors, CallStatus, progress params.</summary>
    internal static class CallOutcomes
    {
        /// <summary>
        /// The answer to calls/start for a finished call: its result (protocol.md §7.4), or its
        /// error rebuilt with data callId, state and replayed, thrown.
        /// </summary>
        public static JObject Outcome(JournalEntry entry, bool replayed)
        {
            if (entry.State == CallStates.Completed && entry.Result != null)
            {
                var result = new JObject
                {
                    ["callId"] = entry.CallId,
                    ["result"] = entry.Result,
                    ["replayed"] = replayed,
                };
                if (entry.AliasOf != null) result["attachedTo"] = entry.AliasOf;
                result["startedAt"] = entry.StartedAt ?? entry.QueuedAt;
                result["finishedAt"] = entry.FinishedAt ?? JournalClock.NowMs();
                return result;
            }
            var stored = entry.Error ?? new TetherException(ErrorCodes.InternalError, "Call \"" + entry.CallId + "\" ended without a result.").ToJson();
            var error = TetherException.FromJson(stored);
            throw error.With(new JObject { ["callId"] = entry.CallId, ["state"] = entry.State, ["replayed"] = replayed });
        }

        /// <summary>The final state an error ends a call in (protocol.md §8.1).</summary>
        public static string StateFor(TetherException error)
        {
            if (error.Code == ErrorCodes.Cancelled || error.Code == ErrorCodes.DeadlineExceeded) return CallStates.Cancelled;
            return error.Code == ErrorCodes.OutcomeUnknown ? CallStates.Interrupted : CallStates.Failed;
        }

        /// <summary>A CallStatus (protocol.md §7.5); <paramref name="position"/> is given only while queued.</summary>
        public static JObject Status(JournalEntry entry, int? position)
        {
            var status = new JObject
            {
                ["callId"] = entry.CallId,
                ["tool"] = entry.Tool,
                ["state"] = entry.State,
            };
            if (position.HasValue && position.Value >= 0) status["position"] = position.Value;
            status["queuedAt"] = entry.QueuedAt;
            if (entry.StartedAt.HasValue) status["startedAt"] = entry.StartedAt.Value;
            if (entry.FinishedAt.HasValue) status["finishedAt"] = entry.FinishedAt.Value;
            if (entry.Result != null) status["result"] = entry.Result;
            if (entry.Error != null) status["error"] = entry.Error;
            if (entry.AliasOf != null) status["attachedTo"] = entry.AliasOf;
            if (entry.Agent != null) status["agent"] = entry.Agent;
            return status;
        }

        /// <summary>A host/status entry (protocol.md §7.16): the CallStatus, with the tool's last progress while the call is live.</summary>
        public static JObject Listed(JournalEntry entry, int? position, ToolProgress last)
        {
            var status = Status(entry, position);
            if (last == null) return status;
            var progress = new JObject();
            if (last.Progress.HasValue) progress["progress"] = Number(last.Progress.Value);
            if (last.Total.HasValue) progress["total"] = Number(last.Total.Value);
            if (last.Message != null) progress["message"] = last.Message;
            if (progress.Count > 0) status["lastProgress"] = progress;
            return status;
        }

        /// <summary>"[tether] claude-code 2.1 called build_player (callId …)": which agent called which tool, for the host's log.</summary>
        public static string CalledLine(JObject agent, string tool, string callId)
        {
            var name = agent?["name"]?.Type == JTokenType.String ? (string)agent["name"] : null;
            var version = agent?["version"]?.Type == JTokenType.String ? (string)agent["version"] : null;
            var who = name == null ? "an agent" : string.IsNullOrEmpty(version) ? name : name + " " + version;
            return $"[tether] {who} called {tool} (callId {callId})";
        }

        /// <summary>notifications/calls/progress params (protocol.md §7.7), under the callId the listener attached by.</summary>
        public static JObject Progress(string callId, string state, bool heartbeat, long elapsedMs, ToolProgress last)
        {
            var progress = new JObject
            {
                ["callId"] = callId,
                ["state"] = state,
                ["heartbeat"] = heartbeat,
                ["elapsedMs"] = elapsedMs,
            };
            if (last.Progress.HasValue) progress["progress"] = Number(last.Progress.Value);
            if (last.Total.HasValue) progress["total"] = Number(last.Total.Value);
            if (last.Message != null) progress["message"] = last.Message;
            return progress;
        }

        /// <summary>A whole number as an integer (40, not 40.0), as a JavaScript host writes it.</summary>
        private static JToken Number(double value) =>
            System.Math.Floor(value) == value && System.Math.Abs(value) < 9e15 ? new JValue((long)value) : new JValue(value);
    }
}
