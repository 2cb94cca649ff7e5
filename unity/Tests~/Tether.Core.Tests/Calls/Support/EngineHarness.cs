using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Calls;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tests.Journal;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Calls.Support
{
    /// <summary>
    /// One editor over one journal file, through lives as across domain reloads: each life has its
    /// own host loop, main thread and engine, and the previous life's are torn down (work they
    /// would post afterwards is dropped, as a reload drops it). Tools are registered once and
    /// log their runs as "life:callId".
    /// </summary>
    internal sealed class EngineHarness : IDisposable
    {
        private readonly object _gate = new object();
        private readonly List<string> _runs = new List<string>();
        /// <summary>Runs waiting to be released, by the callId they serve.</summary>
        private readonly Dictionary<string, TaskCompletionSource<object>> _gates = new Dictionary<string, TaskCompletionSource<object>>();

        public readonly Changes Changes = new Changes();
        public readonly Dictionary<string, RegisteredTool> Tools = new Dictionary<string, RegisteredTool>();
        public readonly string Dir = TempDirs.Create("tether-calls-");

        public string JournalPath => Path.Combine(Dir, "journal.jsonl");
        public string Label { get; private set; } = "";
        public HostLoop Loop { get; private set; }
        public FakeMainThread Main { get; private set; }
        public CallEngine Engine { get; private set; }
        public CallJournal Journal { get; private set; }

        /// <summary>The store each life's journal uses (a file at JournalPath unless set).</summary>
        public Func<IJournalStore> Store;
        public int HeartbeatMs = 5000;
        public int RequeueGraceMs;
        public bool AfterRestart;
        public long DefaultDeadlineMs = 600_000;
        public long DeadlineGraceMs = 30_000;
        public long RetentionMs = CallJournal.DefaultRetentionMs;

        public List<string> Runs
        {
            get { lock (_gate) return _runs.ToList(); }
        }

        /// <summary>Starts a new life on the same journal: the old one is torn down, the journal restored.</summary>
        public EngineHarness Life(string label)
        {
            TearDownLife();
            Label = label;
            Main = new FakeMainThread();
            Loop = new HostLoop("test loop " + label);
            Journal = new CallJournal(Store != null ? Store() : new FileJournalStore(JournalPath), RetentionMs);
            Engine = new CallEngine(new CallEngineOptions
            {
                Journal = Journal,
                Tools = () => Tools,
                MainThread = Main,
                Loop = Loop,
                HeartbeatMs = HeartbeatMs,
                DefaultDeadlineMs = DefaultDeadlineMs,
                DeadlineGraceMs = DeadlineGraceMs,
                RequeueGraceMs = RequeueGraceMs,
                AfterRestart = AfterRestart,
            });
            OnLoop(() => Engine.Restore());
            return this;
        }

        public RecordingObserver Observer(string id, bool canElicit = false) => new RecordingObserver(id, Changes, canElicit);

        public Task<JObject> Start(string callId, string tool, JObject args = null, RecordingObserver by = null, bool attachOnly = false, long? deadlineMs = null, CancellationToken abandoned = default)
        {
            var p = new CallStartParams { CallId = callId, Tool = tool, Arguments = args ?? new JObject(), AttachOnly = attachOnly, DeadlineMs = deadlineMs };
            var observer = by ?? Observer("c1");
            // Returns once the loop has processed the request (as a connection's read would), with the pending answer.
            return OnLoop(() => Engine.Start(p, observer, abandoned));
        }

        public JObject Status(string callId) => OnLoop(() => Engine.Status(callId));

        public JObject Cancel(string callId, string reason = null) => OnLoop(() => Engine.Cancel(callId, reason));

        public T OnLoop<T>(Func<T> work)
        {
            var task = Loop.Invoke(work);
            try
            {
                if (!task.Wait(5000)) throw new TimeoutException("The host loop did not answer.");
            }
            catch (AggregateException error) when (error.InnerException != null)
            {
                throw error.InnerException;
            }
            return task.Result;
        }

        public void OnLoop(Action work) => OnLoop(() => { work(); return true; });

        /// <summary>The result of a calls/start, waiting for it.</summary>
        public static JObject Result(Task<JObject> call)
        {
            Assert.That(call.Wait(5000), Is.True, "calls/start did not finish");
            return call.Result;
        }

        /// <summary>The error a calls/start ended with, waiting for it.</summary>
        public static TetherException Error(Task<JObject> call)
        {
            try
            {
                if (!call.Wait(5000)) Assert.Fail("calls/start did not finish");
            }
            catch (AggregateException error)
            {
                if (error.InnerException is TetherException typed) return typed;
                throw;
            }
            Assert.Fail("calls/start succeeded: " + call.Result);
            return null;
        }

        /// <summary>"completed", or the code of the error the call ended with.</summary>
        public static string OutcomeOf(Task<JObject> call)
        {
            try
            {
                if (!call.Wait(5000)) return "unfinished";
                return "completed";
            }
            catch (AggregateException error)
            {
                return (error.InnerException as TetherException)?.Code ?? error.InnerException?.GetType().Name;
            }
        }

        public void WaitForRuns(int count) => Changes.WaitUntil(() => Runs.Count >= count, count + " tool run(s)");

        /// <summary>
        /// A tool that logs its run and then waits to be released: long-running (so, with side
        /// effects, identical calls share it by default: protocol.md §8.10). With
        /// <paramref name="stopOnCancel"/> it stops (failing with the reason) as soon as its call is cancelled.
        /// </summary>
        public void AddGated(string name, string duplicates = null, bool stopOnCancel = false, bool mainThread = true, bool readOnly = false, object result = null)
        {
            var execution = new JObject { ["mainThread"] = mainThread, ["longRunning"] = true };
            if (duplicates != null) execution["duplicates"] = duplicates;
            var annotations = readOnly ? new JObject { ["readOnlyHint"] = true } : new JObject();
            Tools[name] = TestTools.Make(name, (args, ctx) =>
            {
                var gate = new TaskCompletionSource<object>(result, TaskCreationOptions.RunContinuationsAsynchronously);
                lock (_gate) _gates[ctx.CallId] = gate;
                if (stopOnCancel) ctx.Cancellation.Register(() => gate.TrySetException(ctx.CancellationReason));
                Ran(ctx.CallId);
                return gate.Task;
            }, annotations, execution, args => TestTools.RefuseBad(name, args));
        }

        /// <summary>Lets the run serving <paramref name="callId"/> return ("done" unless the tool was given a result).</summary>
        public void Release(string callId)
        {
            TaskCompletionSource<object> gate;
            lock (_gate)
            {
                if (!_gates.TryGetValue(callId, out gate)) throw new InvalidOperationException("No run for " + callId + " is waiting.");
                _gates.Remove(callId);
            }
            gate.TrySetResult(gate.Task.AsyncState ?? "done");
        }

        public void Ran(string callId)
        {
            lock (_gate) _runs.Add(Label + ":" + callId);
            Changes.Pulse();
        }

        private void TearDownLife()
        {
            if (Engine == null) return;
            var loop = Loop;
            try { OnLoop(() => Engine.Dispose()); } catch (Exception) { /* the old life is going away anyway */ }
            loop.Dispose();
            Main.Dispose();
            Engine = null;
        }

        public void Dispose()
        {
            TearDownLife();
            TempDirs.Remove(Dir);
        }
    }
}
