using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using UnityEditor.SceneManagement;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Prefabs
{
    /// <summary>
    /// Prefab mode as the tools see it: while a prefab is open (PrefabStageUtility's current
    /// stage), the GameObject tools read and edit its preview scene, not the active scene
    /// (SceneManager.GetActiveScene still answers the main stage's, as the scene tools report).
    /// </summary>
    internal static class PrefabStages
    {
        /// <summary>The scene the GameObject tools act on: the open prefab's contents, else the active scene.</summary>
        public static Scene EditedScene()
        {
            var stage = PrefabStageUtility.GetCurrentPrefabStage();
            return stage != null ? stage.scene : SceneManager.GetActiveScene();
        }

        /// <summary>
        /// Puts a GameObject made without a parent where the GameObject tools edit: a new
        /// GameObject starts in the main stage's active scene, so while a prefab is open it is
        /// moved into the prefab's contents (StageUtility.PlaceGameObjectInCurrentStage), as the
        /// sandbox creates root objects in the stage. Call it before registering its undo.
        /// </summary>
        public static void PlaceInEditedScene(GameObject gameObject)
        {
            if (PrefabStageUtility.GetCurrentPrefabStage() != null) StageUtility.PlaceGameObjectInCurrentStage(gameObject);
        }

        /// <summary>
        /// Refuses to place a prefab inside the open one: that makes a nested prefab, which the
        /// sandbox does not model, so neither host makes one (same error as src/sandbox/tools/prefab-tools.ts).
        /// </summary>
        public static void RefuseNesting(string tool)
        {
            var stage = PrefabStageUtility.GetCurrentPrefabStage();
            if (stage == null) return;
            var problem = "\"" + stage.assetPath + "\" is open in prefab mode, and placing a prefab inside another makes a nested prefab, which these tools do not make";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + problem + ". Close it first (close_prefab).",
                new JObject { ["tool"] = tool, ["field"] = "", ["problem"] = problem });
        }
    }
}
