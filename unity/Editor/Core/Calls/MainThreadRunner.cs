using System;
using Tether.Core.Runtime;

namespace Tether.Core.Calls
{
    /// <summary>
    /// Starts queued calls on the editor's main thread one at a time, taking them from a fair
    /// queue. It can hold (take calls without starting any, while requeued calls wait for their
    /// requesters) and pause for good (the host is reloading or shutting down: queued calls stay
    /// queued in the journal). Owned by the host loop.
    /// </summary>
    internal sealed class MainThreadRunner<T> where T : class
    {
        private readonly FairQueue<T> _queue = new FairQueue<T>();
        private readonly HostLoop _loop;
        private readonly Action<T, Action> _run;
        private bool _running;
        private bool _paused;
        private bool _held;

        /// <param name="run">Starts an item; calls its second argument once when the item is done.</param>
        public MainThreadRunner(HostLoop loop, Action<T, Action> run)
        {
            _loop = loop;
            _run = run;
        }

        public bool Busy => _running;

        public int Queued => _queue.Count;

        public void Enqueue(string lane, T item)
        {
            _queue.Enqueue(lane, item);
            Pump();
        }

        public bool Remove(T item) => _queue.Remove(item);

        public int Position(T item) => _queue.Position(item);

        /// <summary>The queued items in the order they would run, at most <paramref name="max"/>.</summary>
        public System.Collections.Generic.List<T> InOrder(int max) => _queue.InOrder(max);

        /// <summary>Stops starting new items for good (the running one finishes): the host is going away.</summary>
        public void Pause() => _paused = true;

        /// <summary>Takes items without starting any until Release.</summary>
        public void Hold() => _held = true;

        public void Release()
        {
            if (!_held) return;
            _held = false;
            Pump();
        }

        private void Pump()
        {
            if (_running || _paused || _held) return;
            if (!_queue.TryDequeue(out var item)) return;
            _running = true;
            var done = false;
            _run(item, () =>
            {
                if (done) return;
                done = true;
                // The next call starts from the loop, after whoever ended this one has finished.
                _loop.Post(() =>
                {
                    _running = false;
                    Pump();
                });
            });
        }
    }
}
