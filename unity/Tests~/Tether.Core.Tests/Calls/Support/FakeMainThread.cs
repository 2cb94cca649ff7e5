using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;
using Tether.Core.Runtime;

namespace Tether.Core.Tests.Calls.Support
{
    /// <summary>
    /// The editor's main thread, played by a dedicated thread the test controls: work runs on it in
    /// the order posted, awaits inside it resume on it (it is its own SynchronizationContext, as
    /// Unity's is), and a test can block it as a long build would.
    /// </summary>
    internal sealed class FakeMainThread : SynchronizationContext, IMainThread, IDisposable
    {
        private readonly BlockingCollection<Action> _work = new BlockingCollection<Action>();
        private readonly Thread _thread;

        public FakeMainThread()
        {
            _thread = new Thread(Run) { IsBackground = true, Name = "fake main thread" };
            _thread.Start();
        }

        public int ManagedThreadId => _thread.ManagedThreadId;

        public bool IsCurrent => Thread.CurrentThread == _thread;

        void IMainThread.Post(Action work) => Add(work);

        public override void Post(SendOrPostCallback d, object state) => Add(() => d(state));

        public override SynchronizationContext CreateCopy() => this;

        /// <summary>Blocks the main thread until the returned handle is disposed; returns once it is blocked.</summary>
        public IDisposable Block()
        {
            var blocked = new ManualResetEventSlim();
            var release = new ManualResetEventSlim();
            Add(() =>
            {
                blocked.Set();
                release.Wait();
            });
            if (!blocked.Wait(5000)) throw new TimeoutException("The main thread did not block.");
            return new Releaser(release);
        }

        /// <summary>Waits until everything posted so far has run.</summary>
        public void Drain()
        {
            var done = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            Add(() => done.SetResult(true));
            if (!done.Task.Wait(5000)) throw new TimeoutException("The main thread did not drain.");
        }

        public void Dispose() => _work.CompleteAdding();

        private void Add(Action work)
        {
            try { _work.Add(work); }
            catch (InvalidOperationException) { /* disposed: the editor is gone */ }
        }

        private void Run()
        {
            SetSynchronizationContext(this);
            foreach (var work in _work.GetConsumingEnumerable())
            {
                try { work(); }
                catch (Exception) { /* a tool body's own throw is caught by the engine; anything else ends here */ }
            }
        }

        private sealed class Releaser : IDisposable
        {
            private readonly ManualResetEventSlim _release;
            public Releaser(ManualResetEventSlim release) { _release = release; }
            public void Dispose() => _release.Set();
        }
    }
}
