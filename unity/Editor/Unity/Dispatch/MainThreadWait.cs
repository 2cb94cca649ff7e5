using System;
using System.Diagnostics;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tools;
using UnityEditor;

namespace Tether.Unity.Dispatch
{
    /// <summary>
    /// A tool's wait for Unity (a compilation, a play-mode change, a test run), completed from
    /// Unity's callbacks on the main thread. Its Task completes synchronously inside the callback
    /// that ends it, so the call engine's continuation posts the result to the host loop before
    /// Unity goes on (and, say, reloads the domain). It ends exactly once: with a result, an
    /// error, the call's cancellation (posted to the main thread), or its time limit (checked on
    /// each editor tick); then its cleanup runs (unsubscribing the Unity events it listened to).
    /// Create, complete and fail it on the main thread.
    /// </summary>
    internal sealed class MainThreadWait<T>
    {
        private readonly TaskCompletionSource<T> _done = new TaskCompletionSource<T>();
        private readonly Stopwatch _clock = Stopwatch.StartNew();
        private readonly CancellationTokenRegistration _cancellation;
        private readonly Action _cleanup;
        private Action _onTick;
        private bool _ticking;
        private bool _ended;

        /// <param name="context">The call: its cancellation ends the wait with its reason.</param>
        /// <param name="mainThread">Where the cancellation is carried to (it fires on the host loop).</param>
        /// <param name="cleanup">Runs once when the wait ends, on the main thread.</param>
        public MainThreadWait(IToolContext context, IMainThread mainThread, Action cleanup)
        {
            _cleanup = cleanup;
            if (context != null)
            {
                _cancellation = context.Cancellation.Register(() => mainThread.Post(() =>
                    Fail(context.CancellationReason ?? new TetherException(ErrorCodes.Cancelled, "The call was cancelled.", new JObject { ["started"] = true }))));
            }
        }

        public Task<T> Task => _done.Task;

        public bool IsDone => _ended;

        public long ElapsedMs => _clock.ElapsedMilliseconds;

        /// <summary>Calls <paramref name="onTick"/> on every editor tick until the wait ends (time limits, polling).</summary>
        public void EveryTick(Action onTick)
        {
            _onTick = onTick;
            if (_ticking || IsDone) return;
            _ticking = true;
            EditorApplication.update += Tick;
        }

        public void Complete(T value)
        {
            if (End()) _done.TrySetResult(value);
        }

        public void Fail(Exception error)
        {
            if (End()) _done.TrySetException(error);
        }

        private void Tick()
        {
            if (IsDone) return;
            _onTick?.Invoke();
        }

        private bool End()
        {
            if (_ended) return false;
            _ended = true;
            _cancellation.Dispose();
            if (_ticking)
            {
                _ticking = false;
                EditorApplication.update -= Tick;
            }
            try { _cleanup?.Invoke(); } catch { /* the wait ends regardless; the cleanup is best effort */ }
            return true;
        }
    }
}
