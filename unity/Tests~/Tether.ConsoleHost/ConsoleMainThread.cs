using System;
using System.Collections.Concurrent;
using System.Threading;
using Tether.Core.Runtime;

namespace Tether.ConsoleHost
{
    /// <summary>
    /// The console host's "editor main thread": one dedicated foreground thread that runs the
    /// posted jobs in order, as Unity runs them from EditorApplication.update. A job may block it
    /// (tether_conformance_block does, like a player build); the host loop lives on meanwhile.
    /// Disposing it lets the current job finish and drops the ones still queued, as a domain
    /// reload drops whatever the old domain had scheduled.
    /// </summary>
    internal sealed class ConsoleMainThread : IMainThread, IDisposable
    {
        private readonly BlockingCollection<Action> _jobs = new BlockingCollection<Action>();
        private readonly Thread _thread;
        private readonly IHostLog _log;
        private volatile bool _disposed;

        public ConsoleMainThread(string name, IHostLog log)
        {
            _log = log;
            _thread = new Thread(Run) { IsBackground = false, Name = name };
            _thread.Start();
        }

        /// <summary>True on this main thread.</summary>
        public bool IsCurrent => Thread.CurrentThread == _thread;

        public void Post(Action work)
        {
            if (work == null) throw new ArgumentNullException(nameof(work));
            if (_disposed) return;
            try
            {
                _jobs.Add(work);
            }
            catch (InvalidOperationException)
            {
                // Disposed meanwhile: the domain that posted it is gone, and so is the job.
            }
        }

        /// <summary>Stops after the current job (if any); queued jobs never run. Does not wait.</summary>
        public void Dispose()
        {
            if (_disposed) return;
            _disposed = true;
            _jobs.CompleteAdding();
        }

        /// <summary>Waits for the thread to end (after Dispose), at most <paramref name="timeoutMs"/>.</summary>
        public bool Join(int timeoutMs) => IsCurrent || _thread.Join(timeoutMs);

        private void Run()
        {
            foreach (var job in _jobs.GetConsumingEnumerable())
            {
                if (_disposed) break;
                try
                {
                    job();
                }
                catch (Exception error)
                {
                    // As Unity logs an exception thrown from an update callback and goes on.
                    _log.Error($"A main-thread job failed: {error}");
                }
            }
        }
    }
}
