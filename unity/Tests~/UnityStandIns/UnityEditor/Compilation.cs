using System;

namespace UnityEditor.Compilation
{
    // https://docs.unity3d.com/ScriptReference/Compilation.CompilationPipeline.html
    public static partial class CompilationPipeline
    {
        // https://docs.unity3d.com/ScriptReference/Compilation.CompilationPipeline-compilationStarted.html
        public static event Action<object> compilationStarted;

        // https://docs.unity3d.com/ScriptReference/Compilation.CompilationPipeline-compilationFinished.html
        public static event Action<object> compilationFinished;

        // https://docs.unity3d.com/ScriptReference/Compilation.CompilationPipeline-assemblyCompilationFinished.html
        public static event Action<string, CompilerMessage[]> assemblyCompilationFinished;

        // https://docs.unity3d.com/ScriptReference/Compilation.CompilationPipeline.RequestScriptCompilation.html
        // Counts its calls: a test then plays the compilation's events as Unity would.
        public static void RequestScriptCompilation() => CompilationsRequested++;

        /// <summary>Test hook (not Unity API).</summary>
        internal static int CompilationsRequested;

        /// <summary>Test hooks (not Unity API): what Unity does as it compiles.</summary>
        internal static void RaiseCompilationStarted(object context) => compilationStarted?.Invoke(context);
        internal static void RaiseCompilationFinished(object context) => compilationFinished?.Invoke(context);
        internal static void RaiseAssemblyCompilationFinished(string path, CompilerMessage[] messages) =>
            assemblyCompilationFinished?.Invoke(path, messages);
        internal static void Reset()
        {
            compilationStarted = null;
            compilationFinished = null;
            assemblyCompilationFinished = null;
            CompilationsRequested = 0;
        }
    }

    // https://docs.unity3d.com/ScriptReference/Compilation.CompilerMessage.html
    public struct CompilerMessage
    {
        public string message;
        public string file;
        public int line;
        public int column;
        public CompilerMessageType type;
    }

    // https://docs.unity3d.com/ScriptReference/Compilation.CompilerMessageType.html
    public enum CompilerMessageType
    {
        Error = 0,
        Warning = 1,
    }
}
