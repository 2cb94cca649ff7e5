using System.Threading.Tasks;
using Tether.Core.Tools;
using Tether.Unity.Compiling;
using UnityEditor.Compilation;

namespace Tether.Unity.Tools
{
    /// <summary>
    /// compile_scripts: asks Unity to compile and answers when the compilation finishes, with
    /// every compiler message. On success Unity then reloads the domain: the answer is journaled
    /// before that (CompileWait completes it inside compilationFinished, and BeginReload drains
    /// the loop), and the client gets it when it re-attaches by callId (protocol.md §9).
    /// </summary>
    public static class CompileScriptsTool
    {
        [TetherTool("compile_scripts", Title = "Compile scripts",
            Description = "Compiles the project scripts (including the project's [TetherTool] methods). On success the editor reloads its code domain: the connection drops for a few seconds and the result is delivered after the reload. With compile errors the call fails and lists them; the editor keeps its previous scripts.",
            ReadOnly = false, Destructive = false, Idempotent = true, LongRunning = true, Output = typeof(CompileResult))]
        public static Task<object> CompileScripts(IToolContext context) =>
            CompileWait.Run(context, EditorServices.Require(), CompilationPipeline.RequestScriptCompilation, outcome => outcome.Answer());
    }
}
