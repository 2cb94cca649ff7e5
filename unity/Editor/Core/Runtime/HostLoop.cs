using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;

namespace Tether.Core.Runtime
{
    /// <summary>
    /// The host's network side: one background thread that owns every piece of Core state
    /// (connections, calls, journal), as Node's event loop does for the TypeScript host.
    /// Sockets, timers and the main thread post work here; awaits inside it resume here,
    /// because the loop is its own SynchronizationContext. Nothing in Core takes a lock
    /// around its state: whatever touches it runs on this thread.
    /// Unity's main thread never runs this loop, so a build that blocks the main thread for
    /// minutes leaves pings, heartbeats, calls/status and calls/cancel answered.
    /// </summary>
    public sealed class HostLoop : SynchronizationContext, IDisposable
    {
        private readonly BlockingCollection<Action> _queue = new BlockingCollection<Action>();
        private readonly Thread _thread;
        private readonly Action<Exception> _onError;
        private volatile bool _disposed;

        /// <param name="name">The thread's name, for debuggers and logs.</param>
        /// <param name="onError">Told of an exception a posted action threw; the loop goes on.</param>
        public HostLoop(string name = "Tether host loop", Action<Exception> onError = null)
        {
            _onError = onError;
            _thread = new Thread(Run) { IsBackground = true, Name = name };
            _thread.Start();
        }

        /// <summary>True on the loop's own thread.</summary>
        public bool IsCurrent => Thread.CurrentThread == _thread;

        public bool IsDisposed => _disposed;

        /// <summary>Runs the action on the loop, later. Dropped silently once the loop is disposed.</summary>
        public void Post(Action action)
        {
            if (action == null) throw new ArgumentNullException(nameof(action));
            if (_disposed) return;
            try
            {
                _queue.Add(action);
            }
            catch (InvalidOperationException)
            {
                // Disposed between the check and the add: the loop is gone, and so is the work.
            }
        }

        public override void Post(SendOrPostCallback d, object state) => Post(() => d(state));

        public override void Send(SendOrPostCallback d, object state)
        {
            if (IsCurrent)
            {
                d(state);
                return;
            }
            Invoke(() => d(state)).GetAwaiter().GetResult();
        }

        public override SynchronizationContext CreateCopy() => this;

        /// <summary>Runs the function on the loop and completes with its result (or its exception).</summary>
        public Task<T> Invoke<T>(Func<T> work)
        {
            var done = new TaskCompletionSource<T>(TaskCreationOptions.RunContinuationsAsynchronously);
            if (_disposed)
            {
                done.SetException(new ObjectDisposedException(nameof(HostLoop)));
                return done.Task;
            }
            Post(() =>
            {
                try { done.SetResult(work()); }
                catch (Exception error) { done.SetException(error); }
            });
            return done.Task;
        }

        public Task Invoke(Action work) => Invoke(() => { work(); return true; });

        /// <summary>
        /// Completes once the loop has nothing queued: the work queued now has run, and so has the
        /// work it queued in turn (the continuations of the tasks it completed, a few hops deep),
        /// within <paramref name="maxTurns"/> rounds (a loop that stays busy completes it anyway).
        /// </summary>
        public Task Settled(int maxTurns = 32)
        {
            var done = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            var turns = 0;
            void Check()
            {
                if (_queue.Count == 0 || ++turns >= maxTurns) done.TrySetResult(true);
                else Post(Check);
            }
            if (_disposed) done.TrySetResult(true);
            else Post(Check);
            return done.Task;
        }

        /// <summary>
        /// Calls the action on the loop after <paramref name="delayMs"/>. Disposing the returned
        /// handle before it fires cancels it, even when the timer already queued it.
        /// </summary>
        public IDisposable SetTimeout(long delayMs, Action action) => new LoopTimer(this, delayMs, -1, action);

        /// <summary>Calls the action on the loop every <paramref name="periodMs"/> until the handle is disposed.</summary>
        public IDisposable SetInterval(long periodMs, Action action) => new LoopTimer(this, periodMs, periodMs, action);

        /// <summary>
        /// Stops the loop after the work already queued has run (bounded by <paramref name="drainTimeoutMs"/>
        /// when called from another thread). Later posts are dropped.
        /// </summary>
        public void Dispose() => Dispose(5000);

        public void Dispose(int drainTimeoutMs)
        {
            if (_disposed) return;
            _disposed = true;
            _queue.CompleteAdding();
            if (!IsCurrent) _thread.Join(drainTimeoutMs);
        }

        private void Run()
        {
            SetSynchronizationContext(this);
            foreach (var action in _queue.GetConsumingEnumerable())
            {
                try
                {
                    action();
                }
                catch (Exception error)
                {
                    // One faulty callback must not stop the host: report it and go on.
                    try { _onError?.Invoke(error); } catch { /* the reporter failed too: nothing left to tell */ }
                }
            }
        }

        /// <summary>A System.Threading.Timer whose callback runs on the loop, and never after Dispose.</summary>
        private sealed class LoopTimer : IDisposable
        {
            private readonly HostLoop _loop;
            private readonly Action _action;
            private readonly Timer _timer;
            private volatile bool _cancelled;

            public LoopTimer(HostLoop loop, long dueMs, long periodMs, Action action)
            {
                _loop = loop;
                _action = action ?? throw new ArgumentNullException(nameof(action));
                // Timer takes at most 2^32-2 ms; a longer delay is as good as never for a host.
                long due = Math.Max(0, Math.Min(dueMs, 4294967294L));
                long period = periodMs < 0 ? Timeout.Infinite : Math.Max(1, Math.Min(periodMs, 4294967294L));
                _timer = new Timer(_ => Fire(), null, due, period);
            }

            private void Fire()
            {
                if (_cancelled) return;
                _loop.Post(() =>
                {
                    if (!_cancelled) _action();
                });
            }

            public void Dispose()
            {
                _cancelled = true;
                _timer.Dispose();
            }
        }
    }
}
