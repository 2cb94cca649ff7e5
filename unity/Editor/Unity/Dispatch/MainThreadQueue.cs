using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using Tether.Core.Runtime;

namespace Tether.Unity.Dispatch
{
    /// <summary>
    /// The queue behind the editor's main thread, without Unity: any thread posts, the main
    /// thread drains it once per editor tick. Jobs run in the order posted, one at a time; a job
    /// that throws is reported and the next one runs. Posting wakes the editor (the waker is
    /// given), because Unity ticks a background editor rarely.
    /// </summary>
    internal sealed class MainThreadQueue : IMainThread
    {
        private readonly ConcurrentQueue<Action> _jobs = new ConcurrentQueue<Action>();
        private readonly Action _wake;
        private readonly Action<Exception> _onError;

        /// <param name="wake">Asks the editor for a tick soon; called after each post, from the posting thread.</param>
        /// <param name="onError">Told of a job's exception (and of a waker's); the queue goes on.</param>
        public MainThreadQueue(Action wake, Action<Exception> onError)
        {
            _wake = wake;
            _onError = onError;
        }

        /// <summary>Jobs posted and not yet run.</summary>
        public int Pending => _jobs.Count;

        public void Post(Action work)
        {
            if (work == null) throw new ArgumentNullException(nameof(work));
            _jobs.Enqueue(work);
            try
            {
                _wake?.Invoke();
            }
            catch (Exception error)
            {
                // A waker that fails leaves the job queued: the next ordinary tick runs it.
                Report(error);
            }
        }

        /// <summary>
        /// Runs the jobs that were queued when it started (not those they post: a job that posts
        /// itself again must not hold the editor in one tick), stopping early once
        /// <paramref name="budgetMs"/> has passed so a long queue does not freeze the editor.
        /// Returns how many ran. Call on the main thread only.
        /// </summary>
        public int Drain(long budgetMs = long.MaxValue)
        {
            var due = _jobs.Count;
            var clock = Stopwatch.StartNew();
            var ran = 0;
            while (ran < due && _jobs.TryDequeue(out var job))
            {
                ran++;
                try
                {
                    job();
                }
                catch (Exception error)
                {
                    Report(error);
                }
                if (clock.ElapsedMilliseconds >= budgetMs) break;
            }
            return ran;
        }

        private void Report(Exception error)
        {
            try { _onError?.Invoke(error); } catch { /* the reporter failed too: nothing left to tell */ }
        }
    }
}
