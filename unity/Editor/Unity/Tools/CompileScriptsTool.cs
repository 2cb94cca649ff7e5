using System;
using System.Threading.Tasks;
using Tether.Core.Tools;
using Tether.Unity.Compiling;
using Tether.Unity.Dispatch;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tools
{
    /// <summary>
    /// compile_scripts: asks Unity to compile and answers when the compilation finishes, with
    /// every compiler message. On success Unity then reloads the domain: the answer is journaled
    /// before that (its Task completes inside compilationFinished, and BeginReload drains the
    /// loop), and the client gets it when it re-attaches by callId (protocol.md §9).
    /// </summary>
    public static class CompileScriptsTool
    {
        /// <summary>Unity starts a requested compilation within a few ticks; none by then means nothing needed compiling.</summary>
        private const long StartWithinMs = 5000;

        [TetherTool("compile_scripts", Title = "Compile scripts",
            Description = "Compiles the project scripts (including the project's [TetherTool] methods). On success the editor reloads its code domain: the connection drops for a few seconds and the result is delivered after the reload. With compile errors the call fails and lists them; the editor keeps its previous scripts.",
            ReadOnly = false, Destructive = false, Idempotent = true, LongRunning = true)]
        public static Task<object> CompileScripts(IToolContext context)
        {
            var services = EditorServices.Require();
            var watcher = services.Compiles;
            Action<CompileOutcome> onFinished = null;
            var wait = new MainThreadWait<object>(context, services.MainThread, () => watcher.Finished -= onFinished);
            onFinished = outcome => wait.Complete(outcome.Answer());
            watcher.Finished += onFinished;
            context.Progress(null, null, "Compiling scripts");
            CompilationPipeline.RequestScriptCompilation();
            wait.EveryTick(() =>
            {
                if (!watcher.Compiling && !EditorApplication.isCompiling && wait.ElapsedMs > StartWithinMs)
                {
                    wait.Complete(new CompileOutcome { UpToDate = true }.Answer());
                }
            });
            return wait.Task;
        }
    }
}
