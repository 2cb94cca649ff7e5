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
    /// error, the call's cancellation (posted to the main thread) when the work can be stopped,
    /// or its time limit (checked on each editor tick); then its cleanup runs (unsubscribing the
    /// Unity events it listened to). Create, complete and fail it on the main thread.
    ///
    /// Work Unity cannot stop once asked (a compilation, a Package Manager add or remove, entering
    /// or leaving play mode) is not stoppable: a cancel or a deadline does not end its wait, since
    /// "cancelled" would say the work did not happen while Unity goes on to do it. The call ends
    /// with what Unity did, as a call that finishes anyway does (protocol.md §7.6). Should Unity
    /// not finish within <see cref="MainThreadWaitLimits.UnstoppableGraceMs"/> of the cancel, the wait ends with it
    /// after all, so that no call holds its place forever.
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
        private long? _cancelledAtMs;
        private Exception _cancelReason;

        /// <param name="context">The call: its cancellation ends a stoppable wait with its reason.</param>
        /// <param name="mainThread">Where the cancellation is carried to (it fires on the host loop).</param>
        /// <param name="cleanup">Runs once when the wait ends, on the main thread.</param>
        /// <param name="stoppable">Whether ending the wait stops the work; false for what Unity finishes regardless.</param>
        public MainThreadWait(IToolContext context, IMainThread mainThread, Action cleanup, bool stoppable)
        {
            _cleanup = cleanup;
            if (context == null) return;
            _cancellation = context.Cancellation.Register(() => mainThread.Post(() =>
            {
                var reason = context.CancellationReason ?? new TetherException(ErrorCodes.Cancelled, "The call was cancelled.", new JObject { ["started"] = true });
                if (stoppable) Fail(reason);
                else GiveUpAfterGrace(reason);
            }));
        }

        private void GiveUpAfterGrace(Exception reason)
        {
            if (IsDone) return;
            _cancelReason = reason;
            _cancelledAtMs = ElapsedMs;
            StartTicking();
        }

        public Task<T> Task => _done.Task;

        public bool IsDone => _ended;

        public long ElapsedMs => _clock.ElapsedMilliseconds;

        /// <summary>Calls <paramref name="onTick"/> on every editor tick until the wait ends (time limits, polling).</summary>
        public void EveryTick(Action onTick)
        {
            _onTick = onTick;
            StartTicking();
        }

        private void StartTicking()
        {
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
            if (!IsDone && _cancelledAtMs.HasValue && ElapsedMs - _cancelledAtMs.Value >= MainThreadWaitLimits.UnstoppableGraceMs) Fail(_cancelReason);
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

    internal static class MainThreadWaitLimits
    {
        /// <summary>How long an unstoppable wait goes on after its call was cancelled (or ran past its deadline); tests shorten it.</summary>
        internal static long UnstoppableGraceMs = 5 * 60 * 1000;
    }
}
