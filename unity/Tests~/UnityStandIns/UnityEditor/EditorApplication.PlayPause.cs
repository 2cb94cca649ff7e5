using System;

namespace UnityEditor
{
    public sealed partial class EditorApplication
    {
        // https://docs.unity3d.com/ScriptReference/EditorApplication-isPaused.html
        public static bool isPaused { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/EditorApplication-isUpdating.html
        public static bool isUpdating => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/EditorApplication.Step.html
        public static void Step() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/EditorUserBuildSettings.html
    public partial class EditorUserBuildSettings : UnityEngine.Object
    {
        // https://docs.unity3d.com/ScriptReference/EditorUserBuildSettings-activeBuildTarget.html
        public static BuildTarget activeBuildTarget => throw new NotImplementedException();
    }
}
