using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Journal;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>What host/status says of calls (protocol.md §7.16), from what the loop holds: never waits on the main thread.</summary>
    public sealed partial class CallEngine
    {
        /// <summary>
        /// Every queued or running callId (aliases right after the execution they share), running
        /// first, then in the order the queue would run them, each with its last progress; and the
        /// calls that ended interrupted within the retention, newest first. Each list holds at most
        /// <paramref name="max"/>; "omitted" counts the rest: { calls, unknownOutcomes, omitted: { calls, unknownOutcomes } }.
        /// </summary>
        public JObject Overview(int max = Methods.HostStatusMaxEntries, long? now = null)
        {
            var at = now ?? JournalClock.NowMs();
            var running = _executions.Where(c => c.Entry.State == CallStates.Running).OrderBy(c => c.Entry.StartedAt ?? 0).ToList();
            var queued = _runner.InOrder(max);
            var inQueue = new HashSet<LiveCall>(queued);
            // Requeued calls held for their requesters, or off-thread ones held back: queued, after the rest.
            var waiting = _executions.Where(c => c.Entry.State == CallStates.Queued && !inQueue.Contains(c)).OrderBy(c => c.Entry.QueuedAt).ToList();
            var calls = new JArray();
            var total = 0;
            foreach (var call in running.Concat(queued).Concat(waiting))
            {
                foreach (var requester in call.Requesters)
                {
                    total++;
                    if (calls.Count >= max) continue;
                    var entry = requester.Entry;
                    int? position = entry.State == CallStates.Queued ? _runner.Position(call) : (int?)null;
                    calls.Add(CallOutcomes.Listed(entry, position, call.LastProgress));
                }
            }
            // The queue holds more than was walked: count them too.
            if (queued.Count >= max) total += System.Math.Max(0, _runner.Queued - queued.Count);
            var interrupted = _journal.Values
                .Where(e => e.State == CallStates.Interrupted && (!e.FinishedAt.HasValue || at - e.FinishedAt.Value <= _journal.RetentionMs))
                .OrderByDescending(e => e.FinishedAt ?? 0)
                .ToList();
            var unknown = new JArray(interrupted.Take(max).Select(e => CallOutcomes.Status(e, null)));
            return new JObject
            {
                ["calls"] = calls,
                ["unknownOutcomes"] = unknown,
                ["omitted"] = new JObject { ["calls"] = total - calls.Count, ["unknownOutcomes"] = System.Math.Max(0, interrupted.Count - max) },
            };
        }
    }
}
