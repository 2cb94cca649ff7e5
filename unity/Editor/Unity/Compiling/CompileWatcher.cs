using System;
using System.Linq;
using UnityEditor.Compilation;

namespace Tether.Unity.Compiling
{
    /// <summary>
    /// Follows Unity's compilations for one domain (CompilationPipeline's events, all raised on
    /// the main thread): collects each assembly's compiler messages between compilationStarted
    /// and compilationFinished, and tells whoever waits what the compilation did.
    /// </summary>
    internal sealed class CompileWatcher : IDisposable
    {
        private CompileOutcome _current;
        private bool _attached;

        /// <summary>Raised on the main thread when a compilation finishes, with what it did.</summary>
        public event Action<CompileOutcome> Finished;

        public CompileWatcher()
        {
            CompilationPipeline.compilationStarted += OnStarted;
            CompilationPipeline.assemblyCompilationFinished += OnAssemblyFinished;
            CompilationPipeline.compilationFinished += OnFinished;
            _attached = true;
        }

        /// <summary>A compilation is under way (started and not yet finished).</summary>
        public bool Compiling => _current != null;

        private void OnStarted(object context) => _current = new CompileOutcome();

        private void OnAssemblyFinished(string assemblyPath, CompilerMessage[] messages)
        {
            (_current ?? (_current = new CompileOutcome())).AddAssembly(
                (messages ?? Array.Empty<CompilerMessage>()).Select(message => new CompileMessage(
                    message.file, message.line, message.column, SeverityOf(message.type), message.message)));
        }

        private void OnFinished(object context)
        {
            var outcome = _current ?? new CompileOutcome { UpToDate = true };
            if (outcome.AssembliesCompiled == 0) outcome.UpToDate = true;
            _current = null;
            Finished?.Invoke(outcome);
        }

        private static string SeverityOf(CompilerMessageType type)
        {
            switch (type)
            {
                case CompilerMessageType.Error: return "error";
                case CompilerMessageType.Warning: return "warning";
                // Unity 2021.3 also reports Info messages.
                default: return "info";
            }
        }

        public void Dispose()
        {
            if (!_attached) return;
            _attached = false;
            CompilationPipeline.compilationStarted -= OnStarted;
            CompilationPipeline.assemblyCompilationFinished -= OnAssemblyFinished;
            CompilationPipeline.compilationFinished -= OnFinished;
        }
    }
}
