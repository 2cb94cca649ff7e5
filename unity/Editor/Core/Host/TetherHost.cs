using System;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;
using Tether.Core.Discovery;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Host
{
    /// <summary>
    /// What an editor embeds to become a Tether host (src/host/host.ts): it listens on loopback,
    /// authenticates every connection, serves the tools, resources and prompts registered on it,
    /// runs calls through the journal and the main thread, announces its state, and advertises
    /// itself with a host record under TETHER_HOME/hosts. Its network side runs on its own
    /// HostLoop thread, so pings, calls/status, calls/cancel and tools/list are answered while the
    /// editor's main thread is blocked. Public members may be called from any thread.
    /// </summary>
    public sealed class TetherHost : IDisposable
    {
        /// <summary>How long closing waits for clients to hang up after their bye before cutting them off.</summary>
        private const int CloseGraceMs = 500;

        private readonly TetherHostOptions _options;
        private readonly HostCore _core;
        private readonly Listener _listener;
        private readonly IHostLog _log;
        private readonly string _recordsDir;
        private readonly object _lifecycle = new object();
        /// <summary>Its record was written: only then is there one to mark for a reload.</summary>
        private volatile bool _advertised;

        private readonly string _startedAt = HostRecord.FormatTime(DateTime.UtcNow);
        private volatile string _state = "ready";
        private bool _started;
        private bool _closed;

        public TetherHost(TetherHostOptions options)
        {
            if (options == null) throw new ArgumentNullException(nameof(options));
            options.Validate();
            _options = options;
            _log = options.Log ?? SilentLog.Instance;
            InstanceId = options.InstanceId ?? Guid.NewGuid().ToString();
            _recordsDir = options.RecordsDir ?? TetherHome.HostsDir();
            Loop = new HostLoop("Tether host loop", error => _log.Error("Tether host: " + error));
            Tools = new ToolRegistry();
            Catalog = new Catalog();
            _core = new HostCore(options, Loop, InstanceId, options.Token ?? HostProof.NewToken(), Tools, Catalog, _log);
            _listener = new Listener(_core);
            Tools.Changed += () => OnLoop(() => _core.Broadcast(Methods.ToolsChanged, new JObject()));
            Catalog.Changed += kind => OnLoop(() => _core.Broadcast(kind == "prompts" ? Methods.PromptsChanged : Methods.ResourcesChanged, new JObject()));
            Catalog.ResourceUpdated += uri => OnLoop(() => _core.ResourceUpdated(uri));
        }

        /// <summary>The tools served; adding or removing one sends notifications/tools/list_changed.</summary>
        public ToolRegistry Tools { get; }

        /// <summary>Resources and prompts served; changes send resources or prompts list_changed.</summary>
        public Catalog Catalog { get; }

        /// <summary>Stable for the editor process; pass it to the next domain's host.</summary>
        public string InstanceId { get; }

        /// <summary>The port bound (0 before Start).</summary>
        public int Port => _listener.Port;

        /// <summary>ready, compiling, reloading, playing or quitting.</summary>
        public string State => _state;

        /// <summary>The host's network thread. Everything of Core runs on it.</summary>
        public HostLoop Loop { get; }

        /// <summary>Accepts connections over streams other than the TCP port (tests, pipes).</summary>
        public Listener Listener => _listener;

        /// <summary>The token clients must prove they know. Never log it.</summary>
        internal string Token => _core.Token;

        /// <summary>Where the record is written.</summary>
        internal string RecordsDir => _recordsDir;

        /// <summary>
        /// Restores the journal, listens and writes the host record. Synchronous; throws a
        /// TetherException (INTERNAL_ERROR) when the journal cannot be read or the record not
        /// written (the host then does not listen), a SocketException when no port can be bound.
        /// </summary>
        public void Start()
        {
            lock (_lifecycle)
            {
                if (_closed) throw new TetherException(ErrorCodes.InternalError, "This host was closed: make a new TetherHost to start again.");
                if (_started) throw new TetherException(ErrorCodes.InternalError, "This host was started already: a TetherHost starts once (make a new one to start again).");
                _started = true;
            }
            RunOnLoop(() =>
            {
                _core.Engine = OpenEngine();
                return true;
            });
            try
            {
                _listener.Listen(_options.Port);
            }
            catch (Exception)
            {
                RunOnLoop(() => { _core.Engine.Dispose(); return true; });
                throw;
            }
            if (_options.Advertise)
            {
                try
                {
                    HostRecords.Write(_recordsDir, Record());
                    _advertised = true;
                }
                catch (Exception error)
                {
                    // No client could find it: it stops listening rather than hold a port for nobody.
                    RunOnLoop(() => { _listener.Stop(); _core.Engine.Dispose(); return true; });
                    throw new TetherException(
                        ErrorCodes.InternalError,
                        $"The host could not write its record in {_recordsDir}, so no client could find it, and it stopped listening: {error.Message}",
                        new JObject { ["recordsDir"] = _recordsDir });
                }
            }
            _log.Info($"Tether host \"{_options.Name}\" listening on 127.0.0.1:{Port}.");
        }

        /// <summary>Announces a state to every connection (notifications/host/state): ready, compiling, reloading, playing, quitting.</summary>
        public void SetState(string state, long? expectedMs = null)
        {
            if (!Methods.HostStates.Contains(state)) throw new ArgumentException($"Unknown host state \"{state}\"; one of {string.Join(", ", Methods.HostStates)}.", nameof(state));
            _state = state;
            OnLoop(() => AnnounceState(state, expectedMs));
        }

        /// <summary>Tells the connections subscribed to <paramref name="uri"/> that it changed (notifications/resources/updated).</summary>
        public void NotifyResourceUpdated(string uri)
        {
            if (uri != null) OnLoop(() => _core.ResourceUpdated(uri));
        }

        /// <summary>
        /// The domain is about to reload (protocol.md §9). Synchronous: runs the work already queued on
        /// the loop first (so a result posted before is journaled), announces "reloading", says bye
        /// (reload) to every authenticated connection, stops starting calls, closes the connections
        /// and the listener, keeps the record, and stops the loop. The next domain builds a new
        /// TetherHost with the same InstanceId and JournalPath.
        /// </summary>
        public void BeginReload(long expectedBackMs)
        {
            if (!BeginClosing()) return;
            var message = ByeMessages.Default("reload", expectedBackMs);
            MarkReloading();
            Shutdown(() =>
            {
                _state = "reloading";
                AnnounceState("reloading", expectedBackMs);
                return CloseEverything("reload", message, expectedBackMs);
            }, removeRecord: false);
        }

        /// <summary>
        /// Marks the record before the port closes: a client refused from now on knows the editor is
        /// coming back, where one refused by an unmarked record's port knows it is not (protocol.md §12).
        /// </summary>
        private void MarkReloading()
        {
            if (!_advertised) return;
            try
            {
                var record = Record();
                record.ReloadingSince = HostRecord.FormatTime(DateTime.UtcNow);
                HostRecords.Write(_recordsDir, record);
            }
            catch (Exception)
            {
                // Its folder is gone: clients then find no record, and wait for none.
            }
        }

        /// <summary>Says bye (quit or shutdown) to every connection, closes them and the listener, removes the record, stops the loop.</summary>
        public void Close(string reason = "shutdown", string message = null)
        {
            if (reason != "quit" && reason != "shutdown") throw new ArgumentException("A host closes for \"quit\" or \"shutdown\" (BeginReload for a reload).", nameof(reason));
            if (!BeginClosing()) return;
            var text = message ?? ByeMessages.Default(reason, null);
            // For good, unlike a reload (protocol.md §8.5): what is still queued never runs, and its
            // requests are answered so. The answers go out as the loop runs the continuations of the
            // requests' tasks: they must be written before the bye and the close, which would drop
            // them (the client could then only say that the outcome is unknown).
            RunOnLoop(() =>
            {
                _core.Engine?.StopStarting();
                _core.Engine?.CancelQueued("the editor " + (reason == "quit" ? "quit" : "shut down") + " first, so it did not run: call it again once the editor is back.");
                return true;
            });
            if (!Loop.IsCurrent) Loop.Settled().Wait(CloseGraceMs);
            Shutdown(() => CloseEverything(reason, text, null), removeRecord: true);
        }

        public void Dispose()
        {
            if (!_closed) Close();
        }

        private bool BeginClosing()
        {
            lock (_lifecycle)
            {
                if (_closed) return false;
                _closed = true;
            }
            if (_started) return true;
            Loop.Dispose();
            return false;
        }

        /// <summary>On the loop: no call starts any more, every connection hears its bye, the listener stops.</summary>
        private Task[] CloseEverything(string reason, string message, long? expectedBackMs)
        {
            _core.Closing = true;
            _core.Engine?.StopStarting();
            var gone = _core.CloseAll(reason, message, expectedBackMs);
            _listener.Stop();
            return gone;
        }

        /// <summary>
        /// Runs <paramref name="close"/> on the loop, gives the streams the close grace to flush their
        /// byes and hang up, tears down what is left, and stops the loop. Called on the loop itself,
        /// the wait cannot block it: the rest then happens on another thread.
        /// </summary>
        private void Shutdown(Func<Task[]> close, bool removeRecord)
        {
            var gone = RunOnLoop(close);
            if (Loop.IsCurrent)
            {
                _ = Task.Run(async () =>
                {
                    await Task.WhenAny(Task.WhenAll(gone), Task.Delay(CloseGraceMs)).ConfigureAwait(false);
                    Finish(removeRecord);
                });
                return;
            }
            Task.WhenAny(Task.WhenAll(gone), Task.Delay(CloseGraceMs)).Wait();
            Finish(removeRecord);
        }

        private void Finish(bool removeRecord)
        {
            try
            {
                RunOnLoop(() =>
                {
                    _core.DestroyAll();
                    _core.Engine?.Dispose();
                    return true;
                });
            }
            catch (ObjectDisposedException)
            {
                // The loop is gone already: so are its streams and timers.
            }
            if (removeRecord && _options.Advertise)
            {
                try
                {
                    HostRecords.Remove(_recordsDir, InstanceId);
                }
                catch (Exception)
                {
                    // There was none to remove (it could not be written), or its folder is gone.
                }
            }
            Loop.Dispose();
        }

        private CallEngine OpenEngine()
        {
            CallEngine engine = null;
            try
            {
                var journal = CallJournal.Open(_options.JournalPath, _options.RetentionMs, _options.ReadOnlyBudgetBytes);
                engine = new CallEngine(new CallEngineOptions
                {
                    Journal = journal,
                    Tools = () => Tools.Snapshot,
                    MainThread = _options.MainThread,
                    Loop = Loop,
                    HeartbeatMs = _options.HeartbeatMs,
                    DefaultDeadlineMs = _options.DefaultDeadlineMs,
                    DeadlineGraceMs = _options.DeadlineGraceMs,
                    RequeueGraceMs = _options.RequeueGraceMs,
                    AfterRestart = _options.AfterRestart,
                    Log = _log,
                });
                engine.Restore();
                return engine;
            }
            catch (Exception error)
            {
                engine?.Dispose();
                var where = _options.JournalPath != null ? $"its journal {_options.JournalPath}" : "its journal";
                throw new TetherException(
                    ErrorCodes.InternalError,
                    $"The host could not open {where} ({error.Message}), so it did not start: without it, a call it ran before could run again. Make the journal's folder writable (or move the damaged file aside), then start it again.",
                    _options.JournalPath != null ? new JObject { ["journalPath"] = _options.JournalPath } : null);
            }
        }

        private void AnnounceState(string state, long? expectedMs)
        {
            _core.State = state;
            var notice = new JObject { ["state"] = state, ["at"] = HostCore.NowMs() };
            if (expectedMs.HasValue) notice["expectedMs"] = expectedMs.Value;
            _core.Broadcast(Methods.HostState, notice);
        }

        private HostRecord Record() => new HostRecord
        {
            InstanceId = InstanceId,
            Pid = ProcessId.Current,
            Port = Port,
            Host = "127.0.0.1",
            Token = _core.Token,
            ProjectPath = _options.ProjectPath,
            Kind = _options.Kind,
            Name = _options.Name,
            ProtocolVersion = Methods.ProtocolVersion,
            StartedAt = _startedAt,
            // Every v1 host writes it (protocol.md §12). A given token's proofs cannot be replayed
            // to a later listener either: their nonces are remembered across listeners (ProofNonces).
            Auth = HostRecord.ProofAuth,
        };

        /// <summary>Runs on the loop now when already there, else posts (dropped once the loop is gone).</summary>
        private void OnLoop(Action action)
        {
            if (Loop.IsCurrent) action();
            else Loop.Post(action);
        }

        /// <summary>Runs on the loop and waits for it (inline when already there); the loop's exception is rethrown as it is.</summary>
        private T RunOnLoop<T>(Func<T> work)
        {
            if (Loop.IsCurrent) return work();
            return Loop.Invoke(work).GetAwaiter().GetResult();
        }
    }
}
