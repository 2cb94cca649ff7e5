using System;
using System.Reflection;
using UnityEditor;

namespace Tether.Unity.Dispatch
{
    /// <summary>
    /// The one place that reaches Unity's internal EditorApplication.SignalTick by reflection:
    /// it is declared [ThreadSafe] in Unity's bindings and wakes the editor's main loop from any
    /// thread, which no public API does (QueuePlayerLoopUpdate is a main-thread-only binding).
    /// When a Unity version lacks it, Create returns null and says why: the dispatcher then
    /// relies on the editor's own ticks (slower in the background, never wrong).
    /// </summary>
    internal static class EditorTickSignal
    {
        /// <summary>An action that signals a tick from any thread, or null (<paramref name="note"/> says why).</summary>
        public static Action Create(out string note)
        {
            note = null;
            try
            {
                var method = typeof(EditorApplication).GetMethod(
                    "SignalTick", BindingFlags.Static | BindingFlags.NonPublic | BindingFlags.Public, null, Type.EmptyTypes, null);
                if (method == null || method.ReturnType != typeof(void))
                {
                    note = "this Unity has no EditorApplication.SignalTick: work posted from the network thread waits for the editor's next tick";
                    return null;
                }
                return (Action)Delegate.CreateDelegate(typeof(Action), method);
            }
            catch (Exception error)
            {
                note = "EditorApplication.SignalTick could not be bound (" + error.Message + "): work posted from the network thread waits for the editor's next tick";
                return null;
            }
        }
    }
}
