using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Prefabs;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class OpenPrefabArgs
    {
        [ToolArg("The prefab, e.g. \"Assets/Prefabs/Enemy.prefab\".", Required = true)]
        public string AssetPath;
    }

    public sealed class ClosePrefabArgs
    {
        [ToolArg("Save the edits to the prefab asset (true) or discard them (false).", Required = true)]
        public bool Save;
    }

    public sealed class PrefabStageInfo
    {
        [ToolArg(Required = true)]
        public string AssetPath;

        [ToolArg(Required = true)]
        public string Name;

        [ToolArg("The path of the prefab's root GameObject while it is open, e.g. \"/Enemy\".", Required = true)]
        public string Root;

        [ToolArg("GameObjects in the prefab.")]
        public int Objects;
    }

    public sealed class OpenPrefabResult
    {
        [ToolArg(Required = true)]
        public PrefabStageInfo Opened;
    }

    public sealed class ClosePrefabResult
    {
        [ToolArg("The prefab that was open.", Required = true)]
        public string Closed;

        [ToolArg("Whether the asset was written (false when there was nothing to save, or save was false).")]
        public bool Saved;

        public bool HadUnsavedChanges;
    }

    /// <summary>
    /// Prefab mode: PrefabStageUtility.OpenPrefab, then the GameObject tools edit the stage's
    /// preview scene (SceneGraph.Scene follows PrefabStages.EditedScene), then
    /// PrefabUtility.SaveAsPrefabAsset of its contents and StageUtility.GoToMainStage. Neither
    /// opening nor closing is an Undo step. With Prefab Mode's Auto Save on (Unity's default),
    /// Unity saves each edit as it is made: the stage is then rarely dirty, and save false
    /// cannot take back what Unity already saved.
    /// </summary>
    public static class PrefabStageTools
    {
        [TetherTool("open_prefab", Title = "Open prefab",
            Description = "Opens a prefab in prefab mode. While it is open, the GameObject tools (get_hierarchy, find_gameobjects, create_gameobject, modify_gameobject, add_component, …) read and edit the prefab's contents instead of the scene, its root at \"/<prefab name>\"; the scenes stay loaded. close_prefab saves or discards the edits. Refused while another prefab with unsaved changes is open.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(OpenPrefabResult))]
        public static object OpenPrefab(OpenPrefabArgs args)
        {
            const string tool = "open_prefab";
            var path = PrefabPaths.Existing(EditorServices.Require().ProjectRoot, args.AssetPath, tool);
            if (AssetDatabase.LoadAssetAtPath<GameObject>(path) == null) throw PrefabPaths.NoPrefab(tool, path, PrefabTools.PrefabAssets());
            var current = PrefabStageUtility.GetCurrentPrefabStage();
            if (current != null && current.assetPath == path) return new OpenPrefabResult { Opened = Describe(current) };
            if (current != null && current.scene.isDirty)
            {
                var problem = "\"" + current.assetPath + "\" is open in prefab mode with unsaved changes";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": " + problem + ". Close it first: close_prefab with save true or false.",
                    new JObject { ["tool"] = tool, ["field"] = "", ["problem"] = problem });
            }
            var stage = PrefabStageUtility.OpenPrefab(path);
            if (stage == null)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity did not open \"" + path + "\" in prefab mode (the console may say why).", new JObject { ["tool"] = tool, ["path"] = path });
            }
            return new OpenPrefabResult { Opened = Describe(stage) };
        }

        [TetherTool("close_prefab", Title = "Close prefab",
            Description = "Leaves prefab mode: saves the open prefab's edits to its asset (save true; its instances in every scene follow, keeping their own overrides) or discards them (save false). The GameObject tools then edit the scenes again.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(ClosePrefabResult))]
        public static object ClosePrefab(ClosePrefabArgs args)
        {
            const string tool = "close_prefab";
            var stage = PrefabStageUtility.GetCurrentPrefabStage();
            if (stage == null) throw new TetherException(ErrorCodes.NotFound, tool + ": no prefab is open in prefab mode. open_prefab opens one.", new JObject());
            var assetPath = stage.assetPath;
            var dirty = stage.scene.isDirty;
            var saved = false;
            if (args.Save && dirty)
            {
                PrefabStages.RequireOneRoot(tool, stage.scene.GetRootGameObjects().Select(root => root.name).ToList());
                PrefabUtility.SaveAsPrefabAsset(stage.prefabContentsRoot, assetPath, out saved);
                if (!saved)
                {
                    throw new TetherException(ErrorCodes.ToolFailed, "Unity could not save \"" + assetPath + "\" (the console may say why); the prefab is still open with its edits.", new JObject { ["tool"] = tool, ["path"] = assetPath });
                }
            }
            // Saved, or discarded as asked: nothing is left for Unity to ask about on the way out.
            stage.ClearDirtiness();
            StageUtility.GoToMainStage();
            return new ClosePrefabResult { Closed = assetPath, Saved = saved, HadUnsavedChanges = dirty };
        }

        private static PrefabStageInfo Describe(PrefabStage stage)
        {
            var root = stage.prefabContentsRoot;
            return new PrefabStageInfo
            {
                AssetPath = stage.assetPath,
                Name = root.name,
                Root = SceneGraph.PathOf(root),
                Objects = HierarchyPath.CountSubtree(root, SceneGraph.Children),
            };
        }
    }
}
