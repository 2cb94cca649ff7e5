using System;

namespace Tether.Core.Runtime
{
    /// <summary>
    /// The editor's main thread: where tool bodies run, one at a time. Unity implements it
    /// with EditorApplication.update; the console host with a dedicated thread.
    /// </summary>
    public interface IMainThread
    {
        /// <summary>
        /// Runs <paramref name="work"/> on the main thread, later, in the order posted.
        /// Callable from any thread; never runs the work inline.
        /// </summary>
        void Post(Action work);
    }
}
