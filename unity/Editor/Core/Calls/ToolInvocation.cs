using System;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Calls
{
    /// <summary>How a tool's run ended, as the loop learns it.</summary>
    internal sealed class ToolOutcome
    {
        /// <summary>The ToolResult, when the tool returned and its result converted.</summary>
        public JObject Result;
        /// <summary>What the tool threw (or the Task it returned faulted with).</summary>
        public Exception Thrown;
        /// <summary>The tool returned, but its result could not be made a ToolResult (TOOL_FAILED from ToResult).</summary>
        public Exception BadResult;
    }

    /// <summary>
    /// Runs one tool body where it belongs, and brings its outcome back to the loop. A main-thread
    /// tool is invoked through IMainThread.Post; any other on the thread pool, beside the main
    /// thread. When the Task it returns completes, the result is converted (ToResult) on that same
    /// thread, and the outcome is posted to the loop straight from the continuation
    /// (ExecuteSynchronously): a domain reload that drains the loop right after then finds the
    /// result journaled.
    /// </summary>
    internal static class ToolInvocation
    {
        /// <param name="claim">For a main-thread tool: the run is the main thread's only if it claims it first (MainThreadClaim).</param>
        /// <param name="begun">Told, on the tool's thread, as the tool begins (its deadline counts from then).</param>
        public static void Start(RegisteredTool tool, JObject arguments, IToolContext context, IMainThread mainThread, HostLoop loop, Action<ToolOutcome> onOutcome, MainThreadClaim claim = null, Action begun = null)
        {
            Action body = () =>
            {
                // Taken back by a host that stopped before the main thread got here: it never runs.
                if (claim != null && !claim.TryStart()) return;
                begun?.Invoke();
                Task<object> running;
                try
                {
                    running = tool.Invoke(arguments, context) ?? Task.FromResult<object>(null);
                }
                catch (Exception thrown)
                {
                    loop.Post(() => onOutcome(new ToolOutcome { Thrown = thrown }));
                    return;
                }
                running.ContinueWith(
                    done => loop.Post(Convert(tool, done, onOutcome)),
                    CancellationToken.None,
                    TaskContinuationOptions.ExecuteSynchronously,
                    TaskScheduler.Default);
            };
            if (tool.MainThread) mainThread.Post(body);
            else ThreadPool.QueueUserWorkItem(_ => body());
        }

        /// <summary>Reads the finished Task, converting a returned value on this (the tool's) thread.</summary>
        private static Action Convert(RegisteredTool tool, Task<object> done, Action<ToolOutcome> onOutcome)
        {
            ToolOutcome outcome;
            if (done.IsFaulted) outcome = new ToolOutcome { Thrown = Unwrap(done.Exception) };
            else if (done.IsCanceled) outcome = new ToolOutcome { Thrown = new OperationCanceledException("The tool's task was cancelled.") };
            else
            {
                try { outcome = new ToolOutcome { Result = tool.ToResult(done.Result) }; }
                catch (Exception bad) { outcome = new ToolOutcome { BadResult = bad }; }
            }
            return () => onOutcome(outcome);
        }

        private static Exception Unwrap(AggregateException error)
        {
            var flat = error.Flatten();
            return flat.InnerExceptions.Count == 1 ? flat.InnerExceptions[0] : flat;
        }
    }
}
