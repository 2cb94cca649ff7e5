using System;
using System.Threading.Tasks;
using Tether.Core.Tools;
using Tether.Unity.Dispatch;
using UnityEditor;

namespace Tether.Unity.Compiling
{
    /// <summary>
    /// A call that makes Unity compile (compile_scripts, create_script, edit_script) and answers
    /// with what the compile did. The answer is made inside compilationFinished, on the main
    /// thread, so it reaches the host loop (and the journal) before Unity goes on to reload the
    /// domain; the client collects it after the reload by callId (protocol.md §9).
    /// </summary>
    internal static class CompileWait
    {
        /// <summary>Unity starts a requested compilation within a few ticks; none by then means nothing needed compiling, or (in play mode) that Unity puts it off.</summary>
        private const long StartWithinMs = 5000;

        /// <param name="trigger">What makes Unity compile (a request, an import); run once the wait listens.</param>
        /// <param name="answer">The call's result from the outcome; what it throws fails the call.</param>
        public static Task<object> Run(IToolContext context, EditorServices services, Action trigger, Func<CompileOutcome, object> answer)
        {
            var watcher = services.Compiles;
            Action<CompileOutcome> onFinished = null;
            // Unity has no way to stop a compilation (nor the reload after it): the call ends with what it did.
            var wait = new MainThreadWait<object>(context, services.MainThread, () => watcher.Finished -= onFinished, stoppable: false);
            void End(CompileOutcome outcome)
            {
                object result;
                try
                {
                    result = answer(outcome);
                }
                catch (Exception error)
                {
                    wait.Fail(error);
                    return;
                }
                wait.Complete(result);
            }
            onFinished = End;
            watcher.Finished += onFinished;
            context.Progress(null, null, "Compiling scripts");
            try
            {
                trigger();
            }
            catch (Exception error)
            {
                // The wait ends with the error, and stops listening.
                wait.Fail(error);
                return wait.Task;
            }
            wait.EveryTick(() =>
            {
                if (!watcher.Compiling && !EditorApplication.isCompiling && wait.ElapsedMs > StartWithinMs)
                {
                    End(EditorApplication.isPlaying ? new CompileOutcome { PutOffInPlayMode = true } : new CompileOutcome { UpToDate = true });
                }
            });
            return wait.Task;
        }
    }
}
