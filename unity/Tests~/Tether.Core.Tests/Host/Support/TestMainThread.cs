using System;
using System.Collections.Concurrent;
using System.Threading;
using Tether.Core.Runtime;

namespace Tether.Core.Tests.Host.Support
{
    /// <summary>The editor's main thread, played by a dedicated thread a test can block as a long build would.</summary>
    internal sealed class TestMainThread : IMainThread, IDisposable
    {
        private readonly BlockingCollection<Action> _work = new BlockingCollection<Action>();
        private readonly Thread _thread;

        public TestMainThread()
        {
            _thread = new Thread(Run) { IsBackground = true, Name = "test main thread" };
            _thread.Start();
        }

        public void Post(Action work)
        {
            try { _work.Add(work); } catch (InvalidOperationException) { /* disposed: the work is dropped */ }
        }

        /// <summary>Blocks the main thread until the returned handle is disposed; returns once it is blocked.</summary>
        public IDisposable Block()
        {
            var blocked = new ManualResetEventSlim();
            var release = new ManualResetEventSlim();
            Post(() =>
            {
                blocked.Set();
                release.Wait();
            });
            if (!blocked.Wait(5000)) throw new TimeoutException("The main thread did not block.");
            return new Release(release);
        }

        public void Dispose() => _work.CompleteAdding();

        private void Run()
        {
            foreach (var work in _work.GetConsumingEnumerable())
            {
                try { work(); } catch (Exception) { /* a tool's fault is the engine's to report */ }
            }
        }

        private sealed class Release : IDisposable
        {
            private readonly ManualResetEventSlim _release;
            public Release(ManualResetEventSlim release) => _release = release;
            public void Dispose() => _release.Set();
        }
    }
}
