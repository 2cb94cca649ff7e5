using System;
using UnityEditor.Build.Reporting;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/BuildPipeline.html
    public class BuildPipeline
    {
        // https://docs.unity3d.com/ScriptReference/BuildPipeline.BuildPlayer.html
        public static BuildReport BuildPlayer(BuildPlayerOptions buildPlayerOptions) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/BuildPipeline-isBuildingPlayer.html
        public static bool isBuildingPlayer => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/BuildPipeline.IsBuildTargetSupported.html
        public static bool IsBuildTargetSupported(BuildTargetGroup buildTargetGroup, BuildTarget target) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/BuildPipeline.GetBuildTargetGroup.html
        public static BuildTargetGroup GetBuildTargetGroup(BuildTarget platform) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/BuildTargetGroup.html
    public enum BuildTargetGroup
    {
        Unknown = 0,
        Standalone = 1,
        iOS = 4,
        Android = 7,
        WebGL = 13,
    }

    // https://docs.unity3d.com/ScriptReference/BuildPlayerOptions.html
    public struct BuildPlayerOptions
    {
        public string[] scenes { get; set; }
        public string locationPathName { get; set; }
        public BuildTarget target { get; set; }
        public BuildOptions options { get; set; }
    }

    // https://docs.unity3d.com/ScriptReference/BuildTarget.html
    public enum BuildTarget
    {
        StandaloneOSX = 2,
        iOS = 9,
        Android = 13,
        StandaloneWindows64 = 19,
        WebGL = 20,
        StandaloneLinux64 = 24,
    }

    // https://docs.unity3d.com/ScriptReference/BuildOptions.html
    [Flags]
    public enum BuildOptions
    {
        None = 0,
        Development = 1,
        CleanBuildCache = 128,
        ConnectWithProfiler = 256,
        AllowDebugging = 512,
        CompressWithLz4 = 262144,
        CompressWithLz4HC = 524288,
        StrictMode = 2097152,
        DetailedBuildReport = 536870912,
    }

    // https://docs.unity3d.com/ScriptReference/EditorBuildSettings.html
    public partial class EditorBuildSettings : UnityEngine.Object
    {
        // https://docs.unity3d.com/ScriptReference/EditorBuildSettings-scenes.html
        public static EditorBuildSettingsScene[] scenes { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/EditorBuildSettingsScene.html
    public class EditorBuildSettingsScene : IComparable
    {
        // https://docs.unity3d.com/ScriptReference/EditorBuildSettingsScene-path.html
        public string path { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/EditorBuildSettingsScene-enabled.html
        public bool enabled { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        public int CompareTo(object obj) => throw new NotImplementedException();
    }
}

namespace UnityEditor.Build
{
    // https://docs.unity3d.com/ScriptReference/Build.IOrderedCallback.html
    public interface IOrderedCallback
    {
        int callbackOrder { get; }
    }

    // https://docs.unity3d.com/ScriptReference/Build.IProcessSceneWithReport.html
    public interface IProcessSceneWithReport : IOrderedCallback
    {
        void OnProcessScene(UnityEngine.SceneManagement.Scene scene, BuildReport report);
    }

    // https://docs.unity3d.com/ScriptReference/Build.BuildFailedException.html
    public class BuildFailedException : Exception
    {
        public BuildFailedException(string message) : base(message) { }
    }
}

namespace UnityEditor.Build.Reporting
{
    // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildReport.html
    public sealed class BuildReport : UnityEngine.Object
    {
        private BuildReport() { }

        // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildReport-summary.html
        public BuildSummary summary => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildSummary.html
    public partial struct BuildSummary
    {
        public TimeSpan totalTime => throw new NotImplementedException();
        public ulong totalSize => throw new NotImplementedException();
        public int totalErrors => throw new NotImplementedException();
        public int totalWarnings => throw new NotImplementedException();
        public BuildResult result => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildResult.html
    public enum BuildResult
    {
        Unknown = 0,
        Succeeded = 1,
        Failed = 2,
        Cancelled = 3,
    }
}
