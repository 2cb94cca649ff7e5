using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tests.Support
{
    /// <summary>Starts a test from a fresh editor: the stand-ins' static events and session state emptied.</summary>
    internal static class UnityStandInState
    {
        public static void Reset()
        {
            EditorApplication.Reset();
            AssemblyReloadEvents.Reset();
            CompilationPipeline.Reset();
            SessionState.Reset();
        }
    }
}
