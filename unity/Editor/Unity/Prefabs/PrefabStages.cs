using System.Collections.Generic;
using System.Linq;
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
        /// Refuses to save prefab contents that are not one prefab: a GameObject created at the
        /// stage's root (create_gameobject while a prefab is open) is beside the prefab's root, and
        /// PrefabUtility.SaveAsPrefabAsset saves only that root, so the other would be dropped
        /// while the call said saved. Same error as src/sandbox/prefabs/prefab-stage.ts.
        /// </summary>
        public static void RequireOneRoot(string tool, IReadOnlyList<string> rootNames)
        {
            if (rootNames.Count == 1) return;
            var problem = "the prefab's contents have " + rootNames.Count + " root GameObjects (" + string.Join(", ", rootNames.Select(name => "\"/" + name + "\"")) + "), and a prefab has exactly one";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": save: " + problem + ". Move the others under the root (reparent_gameobject) or delete them, then save; or close without saving.",
                new JObject { ["tool"] = tool, ["field"] = "save", ["problem"] = problem });
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
