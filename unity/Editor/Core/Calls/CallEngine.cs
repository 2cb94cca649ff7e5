using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Calls
{
    /// <summary>
    /// The at-most-once engine of a host (protocol.md §7.4–§8, port of src/host/call-manager.ts and the rooms it coordinates). Each
    /// callId is journaled before it is queued and before it runs; a repeat of a known callId
    /// attaches to the live call or gets the stored outcome; an identical call (same tool, same
    /// canonical arguments) arriving while one is in flight shares that one execution when the
    /// tool's duplicate policy says "attach". Calls can be queried and cancelled by callId; a
    /// shared call is cancelled only when every requester has cancelled. While a call is queued
    /// or running, every attached connection hears progress at least every heartbeat interval.
    /// Every method is called on the host loop.
    /// </summary>
    public sealed partial class CallEngine : IDisposable
    {
        private readonly CallEngineOptions _options;
        private readonly CallJournal _journal;
        private readonly HostLoop _loop;
        private readonly IHostLog _log;
        /// <summary>Live calls by every callId that requests them (the executing one and its aliases).</summary>
        private readonly Dictionary<string, LiveCall> _live = new Dictionary<string, LiveCall>();
        /// <summary>Every execution queued or running (what the heartbeat walks).</summary>
        private readonly HashSet<LiveCall> _executions = new HashSet<LiveCall>();
        /// <summary>Executions that identical calls may share or be refused by, by fingerprint (tool and canonical arguments).</summary>
        private readonly Dictionary<string, LiveCall> _inFlight = new Dictionary<string, LiveCall>();
        private readonly MainThreadRunner<LiveCall> _runner;
        private readonly HeartbeatTicker _heartbeat;
        private readonly RequeueGrace _grace;
        /// <summary>Calls that would not wait for the main thread, held back (by the grace, or because no call may start).</summary>
        private List<LiveCall> _heldOffThread = new List<LiveCall>();
        private bool _stopped;

        public CallEngine(CallEngineOptions options)
        {
            _options = options ?? throw new ArgumentNullException(nameof(options));
            _journal = options.Journal ?? throw new ArgumentException("CallEngineOptions.Journal is required.", nameof(options));
            _loop = options.Loop ?? throw new ArgumentException("CallEngineOptions.Loop is required.", nameof(options));
            if (options.Tools == null) throw new ArgumentException("CallEngineOptions.Tools is required.", nameof(options));
            if (options.MainThread == null) throw new ArgumentException("CallEngineOptions.MainThread is required.", nameof(options));
            _log = options.Log ?? SilentLog.Instance;
            if (_journal.Log == null) _journal.Log = _log;
            _runner = new MainThreadRunner<LiveCall>(_loop, Execute);
            _heartbeat = new HeartbeatTicker(_loop, options.HeartbeatMs, () => _executions, call => SendProgress(call, true));
            _grace = new RequeueGrace(_loop);
        }

        /// <summary>
        /// Loads the journal a previous life left (protocol.md §8.5) and queues again the calls that
        /// never started. Every execution has its aliases back before the first is queued: one may
        /// start at once, and its aliases must go "running" with it. Withdrawals are journaled, so
        /// they still hold: an execution whose requesters had all withdrawn is cancelled and never
        /// runs, and a withdrawn alias cut off while running ends cancelled, as its requests were told.
        /// Throws when the journal cannot be read or written: the host must not serve without it.
        /// </summary>
        public void Restore()
        {
            var loaded = _journal.Load();
            foreach (var alias in loaded.Interrupted.Where(e => e.AliasOf != null && e.Withdrawn != null)) CopyOutcome(alias, null);
            var calls = loaded.Requeue.Where(e => e.AliasOf == null).Select(e => Track(e, null)).ToList();
            foreach (var alias in loaded.Requeue.Where(e => e.AliasOf != null))
            {
                if (_live.TryGetValue(alias.AliasOf, out var call)) AddRequester(call, alias);
                else CopyOutcome(alias, _journal.Get(alias.AliasOf));
            }
            var wanted = calls.Where(call => call.Requesters.Any(r => r.Entry.Withdrawn == null)).ToList();
            if (_options.AfterRestart) foreach (var call in wanted) MarkLeftByRestart(call);
            if (wanted.Count > 0 && _options.RequeueGraceMs > 0)
            {
                // Their requesters may have cancelled while the host was away: the cancel arrives once
                // they reconnect. Until every one of them is back, or the grace ends, nothing starts.
                _runner.Hold();
                _grace.Begin(wanted, _options.RequeueGraceMs, unclaimed => EndGrace(unclaimed.Where(c => c.Entry.LeftByRestart).ToList()));
            }
            foreach (var call in calls)
            {
                if (!wanted.Contains(call)) Finish(call, null, CallErrors.EveryRequesterWithdrew(call.Entry.CallId));
                // Left by a restart, with no grace: nobody can come back for it.
                else if (call.Entry.LeftByRestart && _options.RequeueGraceMs <= 0) Finish(call, null, CallErrors.UnclaimedAfterRestart(call.Entry.CallId));
                else Schedule(call);
            }
        }

        /// <summary>
        /// A restart found this call queued: journaled as such, so that a domain reload before a
        /// requester comes back keeps it from running for no one. Should the journal not take the
        /// mark, this domain still holds it, and the grace ends as it would have.
        /// </summary>
        private void MarkLeftByRestart(LiveCall call)
        {
            call.Entry.LeftByRestart = true;
            try { _journal.Save(call.Entry); }
            catch (Exception failure) { _log.Warning("Tether could not journal that a restart left call \"" + call.Entry.CallId + "\" queued: " + failure.Message); }
        }

        /// <summary>
        /// A requester of a requeued call is back (or a new identical call shares it): a call a restart
        /// left is wanted again, in this domain and the next, and the grace may end.
        /// </summary>
        private void RequesterCameBack(LiveCall call)
        {
            if (call != null && call.Entry.LeftByRestart)
            {
                call.Entry.LeftByRestart = false;
                // Should the journal not take it, only a reload within the grace would cancel the call,
                // and its requester, re-attaching, would hear that.
                try { _journal.Save(call.Entry); }
                catch (Exception failure) { _log.Warning("Tether could not journal that call \"" + call.Entry.CallId + "\" is wanted again: " + failure.Message); }
            }
            _grace.RequesterBack(call);
        }

        /// <summary>
        /// Starts (or attaches to, or replays) a call, processing its params exactly in the order of
        /// protocol.md §7.4. Completes with the calls/start result when the call finishes, or faults
        /// with a TetherException (for a call that ended otherwise: data callId, state, replayed).
        /// <paramref name="abandoned"/> is the request's own: when the connection abandons the
        /// request it stops hearing about the call, which carries on; cancelling the call is Cancel.
        /// </summary>
        public Task<JObject> Start(CallStartParams p, ICallObserver observer, CancellationToken abandoned)
        {
            try
            {
                return StartOrThrow(p, observer, abandoned);
            }
            catch (Exception error)
            {
                return Task.FromException<JObject>(error);
            }
        }

        private Task<JObject> StartOrThrow(CallStartParams p, ICallObserver observer, CancellationToken abandoned)
        {
            var args = p.Arguments ?? new JObject();
            var argsHash = ReadableFingerprint(p.Tool, args);
            var known = _journal.Get(p.CallId);
            if (known != null)
            {
                if (known.Tool != p.Tool || known.ArgsHash != argsHash) throw CallErrors.Conflict(p.CallId, known.Tool);
                var waiting = Wait(p.CallId, observer, abandoned, p.AttachOnly);
                var requeued = LiveOf(p.CallId);
                RequesterCameBack(requeued);
                return waiting;
            }
            if (p.AttachOnly) throw CallErrors.UnknownOnAttach(p.CallId);
            var tools = _options.Tools();
            if (!tools.TryGetValue(p.Tool, out var tool)) throw ToolSuggestions.UnknownTool(p.Tool, tools.Keys);
            var validated = tool.Validate(args);
            var entry = new JournalEntry
            {
                CallId = p.CallId,
                Tool = p.Tool,
                Arguments = validated,
                ArgsHash = argsHash,
                Lane = observer.Id,
                State = CallStates.Queued,
                QueuedAt = JournalClock.NowMs(),
                DeadlineMs = p.DeadlineMs ?? tool.DeadlineMs,
                Volatile = tool.ReadOnly,
                Agent = p.Agent,
            };
            _inFlight.TryGetValue(argsHash, out var twin);
            if (twin != null && tool.DuplicatePolicy == "reject") throw CallErrors.Duplicate(p.Tool, p.CallId, twin.Entry.CallId, twin.Entry.State);
            if (twin != null && tool.DuplicatePolicy == "attach")
            {
                // A re-sent build must not queue a second build behind the first: it shares it.
                entry.AliasOf = twin.Entry.CallId;
                entry.State = twin.Entry.State;
                entry.StartedAt = twin.Entry.StartedAt;
                Accept(entry);
                AddRequester(twin, entry);
                var waiting = Wait(p.CallId, observer, abandoned, false);
                // A client wanting it: a call a restart left is claimed, as by its own requester.
                RequesterCameBack(twin);
                return waiting;
            }
            Accept(entry);
            // Its listener attached (so the starter hears even the first "running" progress) and its
            // requester waiting before it is scheduled: a call that fails at once ends right there,
            // and must find its requester there, or the answer would read as a replay.
            var call = Track(entry, new Listener(observer, entry.CallId));
            var outcome = Wait(p.CallId, observer, abandoned, false);
            Schedule(call);
            return outcome;
        }

        /// <summary>The call's CallStatus (protocol.md §7.5); UNKNOWN_CALL for a callId never received or expired.</summary>
        public JObject Status(string callId)
        {
            var entry = _journal.Get(callId);
            if (entry == null) throw CallErrors.Unknown(callId);
            var call = LiveOf(callId);
            int? position = call != null && entry.State == CallStates.Queued ? _runner.Position(call) : (int?)null;
            return CallOutcomes.Status(entry, position);
        }

        /// <summary>
        /// Cancels for this requester (protocol.md §7.6). While other requesters still want a shared
        /// call, only this one withdraws (its requests end as cancelled; the call goes on).
        /// Otherwise: queued, the call is removed and never runs; running, its signal fires and the
        /// tool decides; final, nothing. Returns the CallStatus after that.
        /// </summary>
        public JObject Cancel(string callId, string reason)
        {
            reason = reason ?? "Cancelled by the client.";
            var call = LiveOf(callId);
            var requester = call?.RequesterOf(callId);
            if (call == null || requester == null) return Status(callId);
            var started = call.Entry.State == CallStates.Running;
            var others = call.Requesters.Count(r => r.Entry.CallId != callId && r.Entry.Withdrawn == null);
            if (others > 0)
            {
                var error = CallErrors.Withdrawn(callId, reason, started, others);
                // Journaled before anyone hears of it: a reload must not make this requester want the call again.
                requester.Entry.Withdrawn = error.ToJson();
                try
                {
                    _journal.Save(requester.Entry);
                }
                catch (Exception failure)
                {
                    requester.Entry.Withdrawn = null;
                    throw CallErrors.WithdrawalNotJournaled(callId, failure);
                }
                foreach (var notify in requester.OnWithdraw.ToList()) notify(error);
                return Status(callId);
            }
            if (call.Entry.State == CallStates.Queued && Unqueue(call))
            {
                Finish(call, null, CallErrors.CancelledQueued(callId, reason));
            }
            else if (started && call.Signal != null)
            {
                call.Signal.Fire(CallErrors.CancelledRunning(callId, reason), ReportCallbackError);
            }
            return Status(callId);
        }

        /// <summary>
        /// The host is going away for good (quit, shutdown; not a reload): every call still queued
        /// ends cancelled, never started, and its requesters hear it before the bye. Left queued in
        /// the journal, it would run whenever the editor next starts, maybe days later, for no one.
        /// </summary>
        public void CancelQueued(string reason)
        {
            foreach (var call in _executions.ToList())
            {
                if (call.Entry.State != CallStates.Queued) continue;
                Unqueue(call);
                Finish(call, null, CallErrors.CancelledQueued(call.Entry.CallId, reason));
            }
        }

        /// <summary>The connection is gone: it stops hearing about calls, which carry on for whoever re-attaches.</summary>
        public void Detach(ICallObserver observer)
        {
            foreach (var call in _live.Values.Distinct().ToList()) call.Listeners.RemoveAll(l => l.Observer == observer);
        }

        /// <summary>
        /// The host is reloading or shutting down (protocol.md §8.8, §9): no new call starts; queued
        /// calls stay queued in the journal and run after the reload. Running calls finish, and their
        /// outcomes are still journaled.
        /// </summary>
        public void StopStarting()
        {
            _stopped = true;
            _runner.Pause();
            foreach (var call in _executions.Where(c => c.Entry.State == CallStates.Running && c.Claim != null && c.Claim.TryWithdraw()).ToList()) Unstart(call);
        }

        /// <summary>
        /// A main-thread call the main thread had not begun when the host stopped never runs in this
        /// domain (a reload drops the main thread's queue): journaled back to queued, it runs in the
        /// next one, or is cancelled by a close for good, instead of reading as cut off mid-run.
        /// </summary>
        private void Unstart(LiveCall call)
        {
            DisarmDeadline(call);
            call.RunnerDone = null;
            foreach (var requester in call.Requesters)
            {
                requester.Entry.State = CallStates.Queued;
                requester.Entry.StartedAt = null;
                try { _journal.Save(requester.Entry); }
                catch (Exception failure) { _log.Warning("Tether could not journal that call \"" + requester.Entry.CallId + "\" never started: " + failure.Message + ". The next domain will report its outcome as unknown."); }
            }
        }

        /// <summary>Stops starting calls and stops the timers; live calls stay journaled as they are.</summary>
        public void Dispose()
        {
            StopStarting();
            _grace.Dispose();
            _heartbeat.Dispose();
        }

        /// <summary>Stops the call's deadline (or its grace after it): the tool ended, the call did, or it never began.</summary>
        private static void DisarmDeadline(LiveCall call)
        {
            call.Deadline?.Dispose();
            call.Deadline = null;
        }

        /// <summary>Takes a queued call out of where it waits (the main-thread queue, or the grace's off-thread hold); false when it waits in neither.</summary>
        private bool Unqueue(LiveCall call) => _runner.Remove(call) || _heldOffThread.Remove(call);

        private LiveCall LiveOf(string callId) => callId != null && _live.TryGetValue(callId, out var call) ? call : null;

        /// <summary>
        /// The requeued calls may run: their requesters are back (or had their chance). After a
        /// restart, those nobody came back for never run.
        /// </summary>
        private void EndGrace(List<LiveCall> unclaimed)
        {
            foreach (var call in unclaimed.Where(c => c.Entry.State == CallStates.Queued))
            {
                Unqueue(call);
                Finish(call, null, CallErrors.UnclaimedAfterRestart(call.Entry.CallId));
            }
            if (!_stopped)
            {
                var offThread = _heldOffThread;
                _heldOffThread = new List<LiveCall>();
                foreach (var call in offThread.Where(c => c.Entry.State == CallStates.Queued)) Execute(call, null);
            }
            _runner.Release();
        }

        /// <summary>The fingerprint, or INVALID_ARGUMENTS for arguments nested too deeply to walk.</summary>
        private static string ReadableFingerprint(string tool, JObject args)
        {
            try
            {
                return CanonicalJson.Fingerprint(tool, args);
            }
            catch (JsonTooDeepException)
            {
                throw CallErrors.TooDeep(ToolSuggestions.Clip(tool ?? ""));
            }
        }

        private void ReportCallbackError(Exception error) =>
            _log.Warning("Tether: a callback on a call's cancellation failed: " + error.Message);
    }
}
