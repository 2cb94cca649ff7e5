using UnityEditor;
using UnityEditor.SceneManagement;

namespace Tether.Unity.Tools
{
    /// <summary>
    /// What every tool that edits a scene's GameObjects returns its result through: in play mode
    /// Unity puts the scenes back as they were when play mode exits, so the result says the edit
    /// lasts only until then (PlayModeRules.EditLostNote). Not in prefab mode: the open prefab is
    /// an asset, which leaving play mode does not restore. The sandbox's twin is noteEdit in
    /// src/sandbox/tools/play-mode-tool.ts.
    /// </summary>
    internal static class PlayModeEdits
    {
        /// <summary><paramref name="result"/>, noted when play mode will throw the edit away; <paramref name="inScene"/> false for an edit of an asset.</summary>
        public static object Noted(object result, bool inScene = true) =>
            PlayModeRules.NoteEdit(result, inScene && EditorApplication.isPlaying && PrefabStageUtility.GetCurrentPrefabStage() == null);
    }
}
