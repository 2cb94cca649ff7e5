using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Journal;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>A call's life inside the engine: accepted, tracked, waited for, run, finished.</summary>
    public sealed partial class CallEngine
    {
        /// <summary>Journals a new callId; one the journal cannot take is not accepted, and nothing ran.</summary>
        private void Accept(JournalEntry entry)
        {
            try
            {
                _journal.Save(entry);
            }
            catch (Exception failure)
            {
                _journal.Forget(entry.CallId);
                throw CallErrors.NotAccepted(entry.CallId, entry.Tool, failure);
            }
            // Which agent asked for what, in the editor's console (a new callId only: repeats attach or replay).
            _log.Info(CallOutcomes.CalledLine(entry.Agent, entry.Tool, entry.CallId));
        }

        /// <summary>Makes a queued entry a live execution that requesters can attach to; Schedule runs it.</summary>
        private LiveCall Track(JournalEntry entry, Listener listener)
        {
            var call = new LiveCall(entry, MonotonicClock.NowMs());
            if (listener != null) call.Listeners.Add(listener);
            AddRequester(call, entry);
            _executions.Add(call);
            // An "allow" twin runs on its own and must not take the place of the one others share.
            if (!_inFlight.ContainsKey(entry.ArgsHash) && PolicyOf(entry.Tool) != "allow") _inFlight[entry.ArgsHash] = call;
            return call;
        }

        private string PolicyOf(string toolName) =>
            _options.Tools().TryGetValue(toolName, out var tool) ? tool.DuplicatePolicy : "allow";

        private void AddRequester(LiveCall call, JournalEntry entry)
        {
            call.AddRequester(entry);
            _live[entry.CallId] = call;
        }

        private void Schedule(LiveCall call)
        {
            call.Waited = _runner.Busy || _runner.Queued > 0;
            // A tool that says it does not need the main thread does not wait for it (unless held
            // for its requesters, or because no call may start now). One gone from the registry
            // waits its turn, and fails UNKNOWN_TOOL then.
            var offThread = _options.Tools().TryGetValue(call.Entry.Tool, out var tool) && !tool.MainThread;
            if (!offThread) _runner.Enqueue(call.Entry.Lane, call);
            else if (_grace.IsHolding(call) || _stopped) _heldOffThread.Add(call);
            else Execute(call, null);
            // Queued behind other work: said at once, not at the first heartbeat (a call that starts
            // at once says "running" when it does, or needs to say nothing before its result).
            if (call.Entry.State == CallStates.Queued && call.Waited) SendProgress(call, false);
            if (_executions.Contains(call)) _heartbeat.Ensure();
        }

        /// <summary>
        /// Waits for the outcome under <paramref name="callId"/>: the call settling, this requester
        /// withdrawing, or the request being abandoned, whichever comes first.
        /// </summary>
        private Task<JObject> Wait(string callId, ICallObserver observer, CancellationToken abandoned, bool attachOnly)
        {
            var call = LiveOf(callId);
            var requester = call?.RequesterOf(callId);
            if (call == null || requester == null) return Replay(_journal.Get(callId));
            // Re-attaching (a client back after a dropped connection) asks how its call stands, and a
            // requester that withdrew stands withdrawn: only a new calls/start wants the call again.
            if (requester.Entry.Withdrawn != null && attachOnly)
            {
                var withdrawn = TetherException.FromJson(requester.Entry.Withdrawn).With(new JObject { ["callId"] = callId });
                return Task.FromException<JObject>(withdrawn);
            }
            if (requester.Entry.Withdrawn != null)
            {
                // Asking again is wanting it again. Should the journal not take that, it still says
                // withdrawn, which can only get the call cancelled, and that is what this request hears.
                requester.Entry.Withdrawn = null;
                try { _journal.Save(requester.Entry); }
                catch (Exception failure) { _log.Warning("Tether could not journal that call \"" + callId + "\" is wanted again: " + failure.Message); }
            }
            // The starter's listener was attached when the call was queued; a repeat shares it.
            var listener = call.Listeners.FirstOrDefault(l => l.Observer == observer && l.CallId == callId);
            if (listener == null) call.Listeners.Add(listener = new Listener(observer, callId));
            listener.Waiting++;

            var done = new TaskCompletionSource<JObject>(TaskCreationOptions.RunContinuationsAsynchronously);
            var ended = false;
            var registration = default(CancellationTokenRegistration);
            Action<TetherException> end = null;
            end = how =>
            {
                if (ended) return;
                ended = true;
                call.Waiters.Remove(end);
                requester.OnWithdraw.Remove(end);
                registration.Dispose();
                if (--listener.Waiting == 0) call.Listeners.Remove(listener);
                if (how != null)
                {
                    done.SetException(how);
                    return;
                }
                // The requester's own entry: the journal may already have forgotten a read-only one.
                try { done.SetResult(CallOutcomes.Outcome(requester.Entry, false)); }
                catch (Exception error) { done.SetException(error); }
            };
            call.Waiters.Add(end);
            requester.OnWithdraw.Add(end);
            if (abandoned.CanBeCanceled)
            {
                registration = abandoned.Register(() => OnLoop(() => end(CallErrors.Abandoned(callId))));
            }
            return done.Task;
        }

        private static Task<JObject> Replay(JournalEntry entry)
        {
            try
            {
                return Task.FromResult(CallOutcomes.Outcome(entry, true));
            }
            catch (Exception error)
            {
                return Task.FromException<JObject>(error);
            }
        }

        /// <summary>Runs the action on the loop: now when already there, else posted.</summary>
        private void OnLoop(Action action)
        {
            if (_loop.IsCurrent) action();
            else _loop.Post(action);
        }

        /// <summary>
        /// Starts a call's tool. Its "running" record is written first: from then on a crash means
        /// interrupted, for every requester, never a silent second run. A tool whose start cannot
        /// be journaled does not run.
        /// </summary>
        private void Execute(LiveCall call, Action runnerDone)
        {
            call.RunnerDone = runnerDone;
            var entry = call.Entry;
            if (!_options.Tools().TryGetValue(entry.Tool, out var tool))
            {
                Finish(call, null, Tools.ToolSuggestions.UnknownTool(entry.Tool, _options.Tools().Keys));
                return;
            }
            var now = JournalClock.NowMs();
            try
            {
                foreach (var requester in call.Requesters)
                {
                    requester.Entry.State = CallStates.Running;
                    requester.Entry.StartedAt = now;
                    _journal.Save(requester.Entry);
                }
            }
            catch (Exception failure)
            {
                foreach (var requester in call.Requesters)
                {
                    requester.Entry.State = CallStates.Queued;
                    requester.Entry.StartedAt = null;
                }
                Finish(call, null, CallErrors.NotStarted(entry.CallId, entry.Tool, failure));
                return;
            }
            var signal = new CallSignal();
            call.Signal = signal;
            // A call that started at once needs no "running" notice (one frame less per call); one
            // that waited in the queue does, and heartbeats follow either way.
            if (call.Waited) SendProgress(call, false);
            // The deadline counts running time only (protocol.md §8.6), from when the tool begins: a
            // main thread still held by a tool given up past its deadline keeps the next one waiting,
            // and it must not be given up in turn, its outcome unknown, to run once the thread is free.
            var deadlineMs = entry.DeadlineMs ?? _options.DefaultDeadlineMs;
            Action begun = () => _loop.Post(() =>
            {
                if (!entry.IsFinal && call.Deadline == null) call.Deadline = _loop.SetTimeout(deadlineMs, () => Overdue(call, signal, deadlineMs));
            });
            var context = new CallToolContext(this, call, signal, _loop);
            try
            {
                call.Claim = tool.MainThread ? new MainThreadClaim() : null;
                ToolInvocation.Start(tool, entry.Arguments, context, _options.MainThread, _loop, outcome => ToolEnded(call, tool.Name, outcome), call.Claim, begun);
            }
            catch (Exception refused)
            {
                // The main thread would not take the work (an editor tearing down): the tool did not run.
                ToolEnded(call, tool.Name, new ToolOutcome { Thrown = refused });
            }
        }

        /// <summary>
        /// The call's deadline passed: its signal fires, and a tool that heeds it ends. One that
        /// does not is waited for DeadlineGraceMs more, then given up (protocol.md §8.6): its
        /// requesters hear that the outcome is unknown, and the next call may start, where it
        /// would otherwise hold them, and every call queued behind it, for ever.
        /// </summary>
        private void Overdue(LiveCall call, CallSignal signal, long deadlineMs)
        {
            var entry = call.Entry;
            signal.Fire(CallErrors.DeadlineExceeded(entry.CallId, entry.Tool, deadlineMs), ReportCallbackError);
            var graceMs = _options.DeadlineGraceMs;
            call.Deadline = _loop.SetTimeout(graceMs, () =>
            {
                if (entry.IsFinal) return;
                _log.Warning("Tether gave up waiting for \"" + entry.Tool + "\" (call \"" + entry.CallId + "\"): it did not stop within " + graceMs + " ms of its deadline. It may still be running.");
                Finish(call, null, CallErrors.GivenUpAfterDeadline(entry.CallId, entry.Tool, deadlineMs, graceMs));
            });
        }

        /// <summary>
        /// The tool is done. Once the call's signal fired, any error it ends with is recorded as
        /// the cancellation; a result it could not turn into a ToolResult is what is wrong, cancelled or not.
        /// </summary>
        private void ToolEnded(LiveCall call, string toolName, ToolOutcome outcome)
        {
            DisarmDeadline(call);
            if (outcome.BadResult != null) Finish(call, null, CallErrors.ToolFailure(toolName, outcome.BadResult));
            else if (outcome.Thrown != null) Finish(call, null, call.Signal?.Reason ?? CallErrors.ToolFailure(toolName, outcome.Thrown));
            else Finish(call, outcome.Result, null);
        }

        /// <summary>
        /// Ends an execution: its final state journaled, then every alias's, then every waiting
        /// request answered. Nothing is sent for it after this.
        /// </summary>
        private void Finish(LiveCall call, JObject result, TetherException error)
        {
            var entry = call.Entry;
            if (entry.IsFinal) return;
            if (error != null) Finalize(entry, CallOutcomes.StateFor(error), null, error.ToJson());
            else Finalize(entry, CallStates.Completed, result ?? new JObject { ["content"] = new JArray() }, null);
            foreach (var requester in call.Requesters)
            {
                _live.Remove(requester.Entry.CallId);
                if (requester.Entry != entry) CopyOutcome(requester.Entry, entry);
            }
            if (_inFlight.TryGetValue(entry.ArgsHash, out var shared) && shared == call) _inFlight.Remove(entry.ArgsHash);
            _executions.Remove(call);
            DisarmDeadline(call);
            _grace.RequesterBack(call);
            foreach (var waiter in call.Waiters.ToList()) waiter(null);
            if (_executions.Count == 0) _heartbeat.Stop();
            _journal.Prune();
            var runnerDone = call.RunnerDone;
            call.RunnerDone = null;
            runnerDone?.Invoke();
        }

        /// <summary>An alias ends as the execution it shared ended, or cancelled if it withdrew.</summary>
        private void CopyOutcome(JournalEntry alias, JournalEntry source)
        {
            if (alias.Withdrawn != null) Finalize(alias, CallStates.Cancelled, null, alias.Withdrawn);
            else if (source != null && source.IsFinal) Finalize(alias, source.State, source.Result, source.Error);
            else Finalize(alias, CallStates.Interrupted, null, CallErrors.SharedOutcomeUnknown(alias.CallId).ToJson());
        }

        /// <summary>
        /// Records a final state. If the journal cannot take it, memory keeps it (the next
        /// compaction writes it) and the call's outcome stands, except for a call that never ran:
        /// the journal still says "queued", which runs on the next load, so no one may be told that
        /// it will not run.
        /// </summary>
        private void Finalize(JournalEntry target, string state, JObject result, JObject error)
        {
            var neverRan = target.State == CallStates.Queued;
            target.State = state;
            target.FinishedAt = JournalClock.NowMs();
            if (result != null) target.Result = result;
            if (error != null)
            {
                var data = error["data"] is JObject d ? (JObject)d.DeepClone() : new JObject();
                data["callId"] = target.CallId;
                target.Error = new JObject { ["code"] = error["code"], ["message"] = error["message"], ["data"] = data };
            }
            try
            {
                _journal.Save(target);
            }
            catch (Exception failure)
            {
                if (!neverRan)
                {
                    _log.Warning("Tether could not journal the outcome of call \"" + target.CallId + "\" (" + failure.Message + "); it keeps it in memory and writes it at the next compaction.");
                    return;
                }
                target.State = CallStates.Interrupted;
                target.Result = null;
                target.Error = CallErrors.OutcomeNotJournaled(target.CallId, target.Tool, failure).ToJson();
            }
        }

        private void SendProgress(LiveCall call, bool heartbeat)
        {
            var entry = call.Entry;
            if (entry.State != CallStates.Queued && entry.State != CallStates.Running) return;
            call.LastSentAt = MonotonicClock.NowMs();
            var elapsed = JournalClock.NowMs() - (entry.StartedAt ?? entry.QueuedAt);
            foreach (var listener in call.Listeners.ToList())
            {
                listener.Observer.Progress(CallOutcomes.Progress(listener.CallId, entry.State, heartbeat, elapsed, call.LastProgress));
            }
        }

        internal void ToolReportedProgress(LiveCall call, ToolProgress update)
        {
            call.LastProgress = update;
            SendProgress(call, false);
        }

        internal void ToolLogged(LiveCall call, string level, JToken data, string logger)
        {
            if (call.Entry.IsFinal) return;
            foreach (var listener in call.Listeners.ToList()) listener.Observer.Log(listener.CallId, level, data, logger);
        }

        /// <summary>Elicitation goes to the most recently attached connection that can answer (protocol.md §7.9).</summary>
        internal Task<JObject> AskToElicit(LiveCall call, string message, JObject requestedSchema)
        {
            var chosen = call.Listeners.LastOrDefault(l => l.Observer.CanElicit);
            if (chosen == null) throw CallErrors.NoClient(call.Entry.CallId, true);
            return chosen.Observer.Elicit(chosen.CallId, message, requestedSchema, call.Signal.RequestToken);
        }

        internal Task<JToken> AskToSample(LiveCall call, JObject parameters)
        {
            var chosen = call.Listeners.LastOrDefault(l => l.Observer.CanSample);
            if (chosen == null) throw CallErrors.NoClient(call.Entry.CallId, false);
            return chosen.Observer.Sample(chosen.CallId, parameters, call.Signal.RequestToken);
        }
    }
}
