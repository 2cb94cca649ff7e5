using System;
using Tether.Core.Runtime;
using UnityEditor;

namespace Tether.Unity.Dispatch
{
    /// <summary>
    /// Unity's main thread as Core sees it (IMainThread): jobs posted from any thread run from
    /// EditorApplication.update, in order, each with its exceptions caught and logged. One per
    /// domain: created by TetherBootstrap, disposed before a domain reload.
    /// </summary>
    internal sealed class MainThreadDispatcher : IMainThread, IDisposable
    {
        /// <summary>How long one editor tick may spend on queued jobs before it yields to the editor.</summary>
        private const long TickBudgetMs = 50;

        private readonly MainThreadQueue _queue;
        private readonly EditorWaker _waker;
        private bool _attached;

        /// <summary>Construct on the main thread.</summary>
        public MainThreadDispatcher(IHostLog log, Action signalTick)
        {
            _waker = new EditorWaker(signalTick);
            _queue = new MainThreadQueue(_waker.Wake, error => log?.Error("Tether: a job on the main thread failed: " + error));
            EditorApplication.update += OnUpdate;
            _attached = true;
        }

        public bool IsMainThread => _waker.IsMainThread;

        public int Pending => _queue.Pending;

        public void Post(Action work) => _queue.Post(work);

        private void OnUpdate()
        {
            _queue.Drain(TickBudgetMs);
            // Work left over (the budget ran out, or jobs posted more): ask for the next tick now.
            if (_queue.Pending > 0) EditorApplication.QueuePlayerLoopUpdate();
        }

        public void Dispose()
        {
            if (!_attached) return;
            _attached = false;
            EditorApplication.update -= OnUpdate;
        }
    }
}
