using System;
using System.Threading;
using UnityEditor;

namespace Tether.Unity.Dispatch
{
    /// <summary>
    /// Asks Unity for an editor tick soon after work was posted. Unity throttles a background
    /// editor: without a wake, a call made while the user looks at another window may wait for
    /// the next tick the editor decides to take.
    ///
    /// On the main thread: EditorApplication.QueuePlayerLoopUpdate() (public; in Unity's source
    /// it marks the scene "repaint dirty" so a player-loop update and a repaint follow, also
    /// without scene changes). It is an ordinary binding, not marked thread-safe, so it is never
    /// called from another thread. From other threads (the host loop, where calls arrive): the
    /// thread-safe internal SignalTick when this Unity has it (EditorTickSignal), else nothing.
    ///
    /// What only a real Unity can measure, and how: open a project with the package, send it to
    /// the background (another app focused, editor window not minimized, then minimized), and
    /// call a cheap main-thread tool (get_hierarchy with depth 1) 100 times with `tether call`,
    /// timing each call end to end; compare p50/p99 with the editor focused, with
    /// Preferences > General > Interaction Mode at "Default" and at "No Throttling", and with
    /// SignalTick disabled (return null from EditorTickSignal). Expect focused calls within a
    /// frame or two (~10–30 ms); the question is how much the wake saves in the background.
    /// </summary>
    internal sealed class EditorWaker
    {
        private readonly int _mainThreadId;
        private readonly Action _signalTick;

        /// <summary>Construct on the main thread: it is the thread Unity's APIs may be called from.</summary>
        public EditorWaker(Action signalTick)
        {
            _mainThreadId = Thread.CurrentThread.ManagedThreadId;
            _signalTick = signalTick;
        }

        public bool IsMainThread => Thread.CurrentThread.ManagedThreadId == _mainThreadId;

        public void Wake()
        {
            if (IsMainThread)
            {
                EditorApplication.QueuePlayerLoopUpdate();
                return;
            }
            _signalTick?.Invoke();
        }
    }
}
