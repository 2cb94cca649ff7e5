using System;
using System.IO;
using System.Threading;
using Tether.Core.Discovery;
using Tether.Core.Host;
using Tether.Core.Kit;
using Tether.Core.Runtime;

namespace Tether.ConsoleHost
{
    /// <summary>
    /// An editor process made of Core alone, composed as the Unity package composes it: a
    /// TetherHost per code domain, a main thread, tools registered into the host. A simulated
    /// domain reload tears the host and the main thread down and builds new ones, with only what
    /// is on disk (journal, counters, host record) and the instance id surviving, as in Unity.
    /// </summary>
    internal sealed class ConsoleEditor
    {
        private readonly ConsoleHostArguments _args;
        private readonly IHostLog _log;
        private readonly object _gate = new object();
        private TetherHost _host;
        private ConsoleMainThread _main;
        private Thread _reloader;
        private bool _reloading;
        private bool _stopped;
        private int _preferredPort;

        public ConsoleEditor(ConsoleHostArguments args, string projectPath, string name, string version, IHostLog log)
        {
            _args = args;
            _log = log;
            ProjectPath = projectPath;
            Name = name;
            Version = version;
            InstanceId = Guid.NewGuid().ToString();
            JournalPath = Path.Combine(projectPath, "Library", "Tether", "journal.jsonl");
            RecordsDir = TetherHome.HostsDir();
            _preferredPort = args.Port ?? 0;
        }

        public string ProjectPath { get; }
        public string Name { get; }
        public string Version { get; }

        /// <summary>Stable for the process, across simulated reloads (protocol.md §9).</summary>
        public string InstanceId { get; }

        public string JournalPath { get; }
        public string RecordsDir { get; }

        /// <summary>How many times the domain has loaded (1 after Start).</summary>
        public int Generation { get; private set; }

        /// <summary>Loads the first domain: journal restored, listening, record written, ready line printed.</summary>
        public void Start()
        {
            Directory.CreateDirectory(Path.GetDirectoryName(JournalPath));
            Boot();
        }

        /// <summary>
        /// Asks for a domain reload (tether_conformance_reload, or "reload" on stdin). It happens on
        /// the main thread once the current job is done, as Unity reloads once the compile that
        /// asked for it has returned: by then the triggering call's result is on its way to the
        /// journal. A reload already under way absorbs the request.
        /// </summary>
        public void RequestReload()
        {
            ConsoleMainThread main;
            lock (_gate)
            {
                if (_reloading || _stopped || _main == null) return;
                main = _main;
            }
            main.Post(ReloadOnMainThread);
        }

        /// <summary>
        /// Quits: waits for a reload under way, then bye (shutdown) to every client, listener closed,
        /// record removed. Safe from any thread, once.
        /// </summary>
        public void Quit()
        {
            Thread reloader;
            lock (_gate)
            {
                if (_stopped) return;
                _stopped = true;
                reloader = _reloader;
            }
            reloader?.Join();
            TetherHost host;
            ConsoleMainThread main;
            lock (_gate)
            {
                host = _host;
                main = _main;
                _host = null;
                _main = null;
            }
            host?.Close("shutdown");
            // Close removes the record; this covers a quit in the middle of a reload, when there was
            // no host to close (or the one there was already leaving for the reload, keeping it).
            HostRecords.Remove(RecordsDir, InstanceId);
            main?.Dispose();
        }

        private void ReloadOnMainThread()
        {
            TetherHost host;
            ConsoleMainThread main;
            int generation;
            lock (_gate)
            {
                if (_reloading || _stopped || _host == null) return;
                _reloading = true;
                host = _host;
                main = _main;
                generation = Generation;
            }
            _log.Info($"domain reload (generation {generation}), back in about {_args.ReloadMs} ms");
            EventLines.Reloading(generation);
            // Synchronous, as Unity's beforeAssemblyReload: state "reloading", bye (reload) to every
            // client, results journaled, connections and listener closed, record kept.
            try
            {
                host.BeginReload(_args.ReloadMs);
            }
            catch (Exception error)
            {
                // The domain goes away all the same, as Unity's does: log it and reload.
                _log.Error($"The host did not close cleanly for the reload: {error.Message}");
            }
            // The old domain's main thread ends with this job; anything it still had queued is lost.
            main.Dispose();
            var reloader = new Thread(() => Reload(main)) { IsBackground = false, Name = "domain reload" };
            lock (_gate)
            {
                _host = null;
                _main = null;
                _reloader = reloader;
            }
            reloader.Start();
        }

        private void Reload(ConsoleMainThread oldMain)
        {
            try
            {
                oldMain.Join(Timeout.Infinite);
                Thread.Sleep(TimeSpan.FromMilliseconds(_args.ReloadMs)); // the editor is away: nothing listens
                lock (_gate)
                {
                    if (_stopped) return;
                }
                Boot();
            }
            catch (Exception error)
            {
                // An editor whose new domain cannot host is of no use to the tests driving it.
                _log.Error($"The host could not start again after a domain reload: {error.Message}");
                Environment.Exit(1);
            }
            finally
            {
                lock (_gate) _reloading = false;
            }
        }

        /// <summary>A new domain: main thread, host, tools, Start (which restores the journal and writes the record), ready line.</summary>
        private void Boot()
        {
            var generation = Generation + 1;
            var main = new ConsoleMainThread($"main thread (domain {generation})", _log);
            TetherHost host;
            try
            {
                host = new TetherHost(HostOptions(main));
                ConsoleTools.Register(host, this, _args);
                host.Start();
            }
            catch
            {
                main.Dispose();
                throw;
            }
            lock (_gate)
            {
                _host = host;
                _main = main;
                _preferredPort = host.Port;
                Generation = generation;
            }
            _log.Info($"console host ready on 127.0.0.1:{host.Port} (generation {generation}, instance {InstanceId})");
            EventLines.Ready(host.Port, InstanceId, generation);
        }

        private TetherHostOptions HostOptions(IMainThread main)
        {
            var options = new TetherHostOptions
            {
                Kind = "console",
                Name = Name,
                Version = Version,
                ProjectPath = ProjectPath,
                Port = _preferredPort,
                // No token: each domain's host makes a fresh one and advertises "auth": "proof",
                // so a token seen by whatever held the port during a reload is worth nothing after.
                InstanceId = InstanceId,
                JournalPath = JournalPath,
                RecordsDir = RecordsDir,
                Advertise = true,
                MainThread = main,
                Log = _log,
            };
            if (_args.HeartbeatMs.HasValue) options.HeartbeatMs = _args.HeartbeatMs.Value;
            if (_args.FrameTimeoutMs.HasValue) options.FrameTimeoutMs = _args.FrameTimeoutMs.Value;
            if (_args.RetentionMs.HasValue) options.RetentionMs = _args.RetentionMs.Value;
            if (_args.MaxConnections.HasValue) options.MaxConnections = _args.MaxConnections.Value;
            if (_args.RequeueGraceMs.HasValue) options.RequeueGraceMs = _args.RequeueGraceMs.Value;
            if (_args.PingIntervalMs.HasValue) options.PingIntervalMs = _args.PingIntervalMs.Value;
            if (_args.HandshakeTimeoutMs.HasValue) options.HandshakeTimeoutMs = _args.HandshakeTimeoutMs.Value;
            if (_args.DeadlineGraceMs.HasValue) options.DeadlineGraceMs = _args.DeadlineGraceMs.Value;
            return options;
        }
    }
}
