namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// The part of the host the editor's lifecycle drives: TetherHostAdapter over Core's
    /// TetherHost, or a recorder in tests. Every member may be called from the main thread and
    /// returns once its effect is under way (BeginReload: once the byes are sent).
    /// </summary>
    internal interface IEditorHost
    {
        void SetState(string state, long? expectedMs = null);

        /// <summary>State "reloading" and bye "reload" (expectedBackMs) to every connection; the listener closes, the record stays.</summary>
        void BeginReload(long expectedBackMs);

        /// <summary>Bye with the reason to every connection; the host stops and removes its record.</summary>
        void Close(string reason);
    }
}
