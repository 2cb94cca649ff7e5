using System;
using System.Threading;
using System.Threading.Tasks;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Goes on from a task on the thread that completes it, at once, whatever that thread's
    /// SynchronizationContext. <c>await task.ConfigureAwait(false)</c> does not: .NET (and Unity's
    /// Mono, built from the same source) will not inline an await's continuation on a thread whose
    /// SynchronizationContext is not the default one, and queues it to the thread pool instead.
    /// Unity's main thread has its own. A tool's task completed from a Unity callback there
    /// (compilation finished, play mode entered) must have its result read and posted to the host
    /// loop before Unity goes on to reload the domain; from the pool, it would race the reload,
    /// and the call's outcome would be lost. ContinueWith with ExecuteSynchronously on the default
    /// scheduler runs inline there too.
    /// </summary>
    internal static class InlineContinuation
    {
        /// <summary>
        /// A task that ends as <paramref name="task"/> does (its exceptions, its cancellation), or,
        /// when it succeeds, with what <paramref name="next"/> makes of it, run on the completing thread.
        /// </summary>
        public static Task<object> Then(Task task, Func<Task, object> next)
        {
            var done = new TaskCompletionSource<object>();
            task.ContinueWith(
                finished =>
                {
                    if (finished.IsFaulted) done.TrySetException(finished.Exception.InnerExceptions);
                    else if (finished.IsCanceled) done.TrySetCanceled();
                    else
                    {
                        object value;
                        try { value = next(finished); }
                        catch (Exception error)
                        {
                            done.TrySetException(error);
                            return;
                        }
                        done.TrySetResult(value);
                    }
                },
                CancellationToken.None,
                TaskContinuationOptions.ExecuteSynchronously,
                TaskScheduler.Default);
            return done.Task;
        }
    }
}
