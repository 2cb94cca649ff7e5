using Newtonsoft.Json.Linq;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class CreateScriptableObjectArgs
    {
        [ToolArg("The class, e.g. \"GameSettings\" or \"MyGame.GameSettings\".", Required = true, MinLength = 1)]
        public string Type;

        [ToolArg("Where to create it, e.g. \"Assets/Settings/GameSettings.asset\". Must not exist yet.", Required = true)]
        public string Path;
    }

    /// <summary>
    /// create_scriptable_object: an asset of one of the project's ScriptableObject classes, its
    /// serialized fields at their defaults (ScriptableObject.CreateInstance, AssetDatabase.CreateAsset).
    /// Its fields are read and written with get_serialized_properties / set_serialized_properties.
    /// </summary>
    public static class ScriptableObjectTools
    {
        [TetherTool("create_scriptable_object", Title = "Create ScriptableObject",
            Description = "Creates an asset of one of the project's ScriptableObject classes (a wrong name fails with the closest ones), its fields at their defaults; read and write them with get_serialized_properties and set_serialized_properties on {\"asset\": path}. Missing folders are created; an existing asset is never overwritten. Not an undo step (creating assets never is).",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(AssetResult))]
        public static object CreateScriptableObject(CreateScriptableObjectArgs args)
        {
            const string tool = "create_scriptable_object";
            var root = EditorServices.Require().ProjectRoot;
            var type = new ScriptableObjectTypes(TypeCache.GetTypesDerivedFrom<ScriptableObject>()).Require(args.Type, tool);
            var path = AssetPaths.NewAsset(root, args.Path, tool, ".asset", "Assets/" + type.Name + ".asset");
            if (AssetInfos.IsTaken(root, path)) throw AssetPaths.Taken(tool, "path", path, "Change its fields with set_serialized_properties, or choose another path.");
            AssetInfos.CreateFolders(root, AssetPaths.ParentOf(path), tool);
            var instance = ScriptableObject.CreateInstance(type);
            AssetDatabase.CreateAsset(instance, path);
            Debug.Log("Created " + type.Name + " asset " + path);
            return new JObject { ["asset"] = AssetInfos.Describe(path) };
        }
    }
}
