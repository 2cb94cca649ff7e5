using System.Collections.Generic;
using System.Linq;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine;
using Object = UnityEngine.Object;

namespace Tether.Unity.Tools
{
    public sealed class SetSelectionArgs
    {
        [ToolArg("GameObject paths, e.g. [\"/Player\"].")]
        public List<string> GameObjects = new List<string>();

        [ToolArg("Asset paths, e.g. [\"Assets/Materials/Red.mat\"].")]
        public List<string> Assets = new List<string>();
    }

    public sealed class SelectedGameObject
    {
        [ToolArg(Required = true)]
        public string Path;

        [ToolArg("The scene's path, or the prefab's when it is open in prefab mode.", Required = true)]
        public string Scene;
    }

    public sealed class SelectionResult
    {
        [ToolArg(Required = true)]
        public List<SelectedGameObject> GameObjects = new List<SelectedGameObject>();

        [ToolArg(Required = true)]
        public List<string> Assets = new List<string>();

        [ToolArg("The active object (Selection.activeObject), which the Inspector shows: a GameObject's path or an asset's.")]
        public string Active;
    }

    /// <summary>
    /// get_selection and set_selection on Unity's Selection. Setting it is not an Undo group:
    /// Undo records changes to objects, and the selection is none (Unity may add its own
    /// "Select" step to its history; Tether neither adds nor relies on one).
    /// </summary>
    public static class SelectionTools
    {
        [TetherTool("get_selection", Title = "Get selection",
            Description = "Returns what is selected in the editor: GameObjects (with their scene) and assets, and the active object the Inspector shows.",
            ReadOnly = true, Idempotent = true, Output = typeof(SelectionResult))]
        public static object GetSelection() => Current();

        [TetherTool("set_selection", Title = "Set selection",
            Description = "Selects GameObjects (by path, in the scene the GameObject tools see) and assets (by path), replacing the selection; nothing given clears it. The first becomes the active object. Every name is checked before the selection changes. Not an undo step.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(SelectionResult))]
        public static object SetSelection(SetSelectionArgs args)
        {
            const string tool = "set_selection";
            var root = EditorServices.Require().ProjectRoot;
            var chosen = new List<Object>();
            chosen.AddRange((args.GameObjects ?? new List<string>()).Select(SceneGraph.Require));
            foreach (var input in args.Assets ?? new List<string>())
            {
                var path = AssetPaths.Normalize(root, input, tool, "assets", readOnly: true);
                AssetInfos.Require(path, tool, "assets");
                chosen.Add(AssetDatabase.LoadMainAssetAtPath(path));
            }
            var distinct = chosen.Distinct().ToArray();
            // The first is made active (which selects it alone), then the selection is set whole;
            // get_selection reports what Unity made active.
            if (distinct.Length > 0) Selection.activeObject = distinct[0];
            Selection.objects = distinct;
            return Current();
        }

        private static SelectionResult Current()
        {
            var result = new SelectionResult();
            foreach (var selected in Selection.objects ?? new Object[0])
            {
                if (selected == null) continue;
                if (EditorUtility.IsPersistent(selected))
                {
                    var path = AssetDatabase.GetAssetPath(selected);
                    if (path.Length > 0 && !result.Assets.Contains(path)) result.Assets.Add(path);
                }
                else if (selected is GameObject gameObject)
                {
                    result.GameObjects.Add(new SelectedGameObject { Path = SceneGraph.PathOf(gameObject), Scene = SceneOf(gameObject) });
                }
            }
            var active = Selection.activeObject;
            if (active != null)
            {
                if (EditorUtility.IsPersistent(active)) result.Active = AssetDatabase.GetAssetPath(active);
                else if (active is GameObject gameObject) result.Active = SceneGraph.PathOf(gameObject);
            }
            return result;
        }

        /// <summary>The scene's path, or the prefab's for a GameObject of the prefab open in prefab mode.</summary>
        private static string SceneOf(GameObject gameObject)
        {
            var stage = PrefabStageUtility.GetPrefabStage(gameObject);
            return stage != null ? stage.assetPath : gameObject.scene.path;
        }
    }
}
