namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// Which of Unity's editor processes may become the project's host. Unity runs other editor
    /// processes on the same project, and each of them runs [InitializeOnLoad] code: asset import
    /// workers (Parallel Import; headless, with no scene) and secondary editor processes (the
    /// standalone Profiler). As a host, each would listen and write a host record for the project,
    /// so agents could find it instead of the editor, and would open the editor's journal, where
    /// loading marks the editor's running calls interrupted (outcome unknown) and rewrites the file
    /// under the editor that appends to it. Only the main editor process hosts.
    /// </summary>
    internal static class HostingProcess
    {
        /// <summary>Why this process must not host, or null when it is the editor's main process and hosting is not disabled.</summary>
        public static string WhyNot(string disableVariable, bool assetImportWorker, bool secondaryProcess)
        {
            if (disableVariable == "1") return "TETHER_DISABLE=1 is set in the editor's environment.";
            if (assetImportWorker) return "This is one of Unity's asset import workers, not the editor.";
            if (secondaryProcess) return "This is a secondary editor process (the standalone Profiler, say), not the editor.";
            return null;
        }
    }
}
