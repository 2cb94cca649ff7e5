using System;
using System.Reflection;
using Tether.Core.Tools;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Tools
{
    public sealed class EditorStateResult
    {
        [ToolArg("\"Unity\", or \"Tether Sandbox\".", Required = true)]
        public string Editor;

        [ToolArg("Unity's version (Application.unityVersion), e.g. \"2021.3.45f1\".", Required = true)]
        public string Version;

        [ToolArg("The project's folder, absolute.", Required = true)]
        public string ProjectPath;

        [ToolArg("The platform the editor runs on (Application.platform), e.g. \"WindowsEditor\".", Required = true)]
        public string Platform;

        [ToolArg("The active build target (EditorUserBuildSettings.activeBuildTarget), e.g. \"StandaloneWindows64\".", Required = true)]
        public string BuildTarget;

        public bool Compiling;

        [ToolArg("Refreshing or importing assets.")]
        public bool Updating;

        public bool Playing;

        public bool Paused;

        [ToolArg("Whether the editor is the application in front; an editor in the background runs its main thread less often. Absent when the editor cannot tell.")]
        public bool? Focused;

        [ToolArg("The active scene's path (\"\" for a scene never saved).", Required = true)]
        public string ActiveScene;

        [ToolArg("The prefab open in prefab mode, whose contents the GameObject tools edit meanwhile.")]
        public string PrefabStage;
    }

    /// <summary>get_editor_state: Application, EditorApplication and EditorUserBuildSettings as one answer.</summary>
    public static class EditorStateTools
    {
        [TetherTool("get_editor_state", Title = "Get editor state",
            Description = "Returns what the editor is and is doing: its version, the project, the platform and active build target, whether it is compiling, updating assets, playing or paused, whether it has the focus, the active scene and the prefab open in prefab mode.",
            ReadOnly = true, Idempotent = true, Output = typeof(EditorStateResult))]
        public static object GetEditorState()
        {
            var stage = PrefabStageUtility.GetCurrentPrefabStage();
            return new EditorStateResult
            {
                Editor = "Unity",
                Version = Application.unityVersion,
                ProjectPath = EditorServices.Require().ProjectRoot,
                Platform = Application.platform.ToString(),
                BuildTarget = EditorUserBuildSettings.activeBuildTarget.ToString(),
                Compiling = EditorApplication.isCompiling,
                Updating = EditorApplication.isUpdating,
                Playing = EditorApplication.isPlaying,
                Paused = EditorApplication.isPaused,
                Focused = EditorFocus.IsFocused(),
                ActiveScene = SceneManager.GetActiveScene().path,
                PrefabStage = stage != null ? stage.assetPath : null,
            };
        }
    }

    /// <summary>
    /// Whether the editor has the operating system's focus. Unity 2022.2 says it in the public
    /// EditorApplication.isFocused; 2021.3 only in UnityEditorInternal.InternalEditorUtility's
    /// undocumented isApplicationActive. Both are reached by reflection, so the package compiles
    /// against 2021.3's documented API; null when neither is there.
    /// </summary>
    internal static class EditorFocus
    {
        private static readonly Func<bool> Read = Bind();

        public static bool? IsFocused()
        {
            if (Read == null) return null;
            try
            {
                return Read();
            }
            catch (Exception)
            {
                return null;
            }
        }

        private static Func<bool> Bind()
        {
            const BindingFlags flags = BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;
            var property = typeof(EditorApplication).GetProperty("isFocused", flags)
                ?? typeof(EditorApplication).Assembly.GetType("UnityEditorInternal.InternalEditorUtility")?.GetProperty("isApplicationActive", flags);
            if (property == null || property.PropertyType != typeof(bool) || property.GetMethod == null) return null;
            return () => (bool)property.GetValue(null);
        }
    }
}
