using System;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/InitializeOnLoadAttribute.html
    [AttributeUsage(AttributeTargets.Class)]
    public class InitializeOnLoadAttribute : Attribute
    {
    }

    // https://docs.unity3d.com/ScriptReference/EditorApplication.html
    public sealed partial class EditorApplication
    {
        // https://docs.unity3d.com/ScriptReference/EditorApplication.CallbackFunction.html
        public delegate void CallbackFunction();

        // https://docs.unity3d.com/ScriptReference/EditorApplication-update.html
        // A real delegate field, as in Unity: a test invokes it to play one editor tick.
        public static CallbackFunction update;

        // https://docs.unity3d.com/ScriptReference/EditorApplication.QueuePlayerLoopUpdate.html
        // Counts its calls so a test can see the dispatcher woke the editor.
        public static void QueuePlayerLoopUpdate() => QueuedPlayerLoopUpdates++;

        /// <summary>Test hook (not Unity API).</summary>
        internal static int QueuedPlayerLoopUpdates;

        // https://docs.unity3d.com/ScriptReference/EditorApplication-quitting.html
        public static event Action quitting;

        // https://docs.unity3d.com/ScriptReference/EditorApplication-playModeStateChanged.html
        public static event Action<PlayModeStateChange> playModeStateChanged;

        // https://docs.unity3d.com/ScriptReference/EditorApplication-isPlaying.html
        public static bool isPlaying { get; set; }

        // https://docs.unity3d.com/ScriptReference/EditorApplication-isPlayingOrWillChangePlaymode.html
        public static bool isPlayingOrWillChangePlaymode => isPlaying;

        // https://docs.unity3d.com/ScriptReference/EditorApplication-isCompiling.html
        public static bool isCompiling { get; internal set; }

        // https://docs.unity3d.com/ScriptReference/EditorApplication.EnterPlaymode.html
        public static void EnterPlaymode() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/EditorApplication.ExitPlaymode.html
        public static void ExitPlaymode() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/EditorApplication.ExecuteMenuItem.html
        public static bool ExecuteMenuItem(string menuItemPath) => throw new NotImplementedException();

        /// <summary>Test hooks (not Unity API): what Unity does when play mode changes or the editor quits.</summary>
        internal static void RaisePlayModeStateChanged(PlayModeStateChange change) => playModeStateChanged?.Invoke(change);
        internal static void RaiseQuitting() => quitting?.Invoke();

        /// <summary>Test hook: forget every subscriber, as a new domain would.</summary>
        internal static void Reset()
        {
            update = null;
            quitting = null;
            playModeStateChanged = null;
            QueuedPlayerLoopUpdates = 0;
            isPlaying = false;
            isCompiling = false;
        }
    }

    // https://docs.unity3d.com/ScriptReference/PlayModeStateChange.html
    public enum PlayModeStateChange
    {
        EnteredEditMode,
        ExitingEditMode,
        EnteredPlayMode,
        ExitingPlayMode,
    }

    // https://docs.unity3d.com/ScriptReference/AssemblyReloadEvents.html
    public static class AssemblyReloadEvents
    {
        // https://docs.unity3d.com/ScriptReference/AssemblyReloadEvents.AssemblyReloadCallback.html
        public delegate void AssemblyReloadCallback();

        // https://docs.unity3d.com/ScriptReference/AssemblyReloadEvents-beforeAssemblyReload.html
        public static event AssemblyReloadCallback beforeAssemblyReload;

        /// <summary>Test hooks (not Unity API).</summary>
        internal static void RaiseBeforeAssemblyReload() => beforeAssemblyReload?.Invoke();
        internal static void Reset()
        {
            beforeAssemblyReload = null;
        }
    }

    // https://docs.unity3d.com/ScriptReference/SessionState.html
    // Backed by a dictionary: like Unity's, it outlives a domain (here: a test's objects) and
    // is empty in a new editor process (here: after Reset).
    public class SessionState
    {
        private static readonly System.Collections.Generic.Dictionary<string, object> Values =
            new System.Collections.Generic.Dictionary<string, object>();

        // https://docs.unity3d.com/ScriptReference/SessionState.GetString.html
        public static string GetString(string key, string defaultValue) =>
            Values.TryGetValue(key, out var value) && value is string text ? text : defaultValue;

        // https://docs.unity3d.com/ScriptReference/SessionState.SetString.html
        public static void SetString(string key, string value) => Values[key] = value;

        /// <summary>Test hook (not Unity API): a new editor process.</summary>
        internal static void Reset() => Values.Clear();
    }

    // https://docs.unity3d.com/ScriptReference/EditorUtility.html
    public partial class EditorUtility
    {
        // https://docs.unity3d.com/ScriptReference/EditorUtility-scriptCompilationFailed.html
        public static bool scriptCompilationFailed => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/EditorSettings.html
    public sealed partial class EditorSettings : UnityEngine.Object
    {
        // https://docs.unity3d.com/ScriptReference/EditorSettings-enterPlayModeOptionsEnabled.html
        public static bool enterPlayModeOptionsEnabled { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/EditorSettings-enterPlayModeOptions.html
        public static EnterPlayModeOptions enterPlayModeOptions { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/EnterPlayModeOptions.html
    [Flags]
    public enum EnterPlayModeOptions
    {
        None = 0,
        DisableDomainReload = 1,
        DisableSceneReload = 2,
    }
}

namespace UnityEditorInternal
{
    // https://docs.unity3d.com/ScriptReference/UnityEditorInternal.InternalEditorUtility.html
    public partial class InternalEditorUtility
    {
        // https://docs.unity3d.com/ScriptReference/UnityEditorInternal.InternalEditorUtility-tags.html
        public static string[] tags => throw new NotImplementedException();
    }
}
