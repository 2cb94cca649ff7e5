using System.Collections.Generic;
using Tether.Core.Tools;

namespace Tether.Unity.Compiling
{
    /// <summary>A compiler message as the tools answer it (the sandbox's compilerMessage).</summary>
    public sealed class CompilerMessageResult
    {
        [ToolArg("Project-relative, e.g. \"Assets/Scripts/Player.cs\".", Required = true)]
        public string File;

        [ToolArg("From 1.")]
        public int Line;

        [ToolArg("From 1.")]
        public int Column;

        [ToolArg("Unity also reports info messages.", Enum = new[] { "error", "warning", "info" }, Required = true)]
        public string Severity;

        [ToolArg("The code and the text, e.g. \"CS1002: ; expected\".", Required = true)]
        public string Message;
    }

    /// <summary>What a compile did: compile_scripts' result, and the script tools' "compile" (the sandbox's compileOutcome).</summary>
    public sealed class CompileResult
    {
        [ToolArg("No error: the editor loads the new scripts (it reloads its code domain).")]
        public bool Succeeded;

        [ToolArg("Each error as the console shows it, e.g. \"Assets/Player.cs(12,5): error CS1002: ; expected\".", Required = true)]
        public List<string> Errors;

        [ToolArg("Every compiler message (errors and warnings) with its file, line and column.", Required = true)]
        public List<CompilerMessageResult> Messages;

        [ToolArg("The editor reloads its code domain after this answer (the connection drops for a few seconds).")]
        public bool DomainReload;

        [ToolArg("The project's own tools the compile found.")]
        public List<string> CustomTools;

        [ToolArg("How many assemblies Unity compiled.")]
        public int? AssembliesCompiled;

        public string Note;
    }
}
