using System;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Paths;
using Tether.Unity.Prefabs;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Serialization
{
    /// <summary>The object a serialized-property call reads or writes, wrapped in a SerializedObject.</summary>
    internal sealed class SerializedTarget
    {
        public SerializedObject Object;

        /// <summary>Its class as Unity names it: "Rigidbody", "Material", "EnemyStats".</summary>
        public string Type;

        /// <summary>The object in messages and undo names: 'Rigidbody on "/Player"', '"Assets/Data/Goblin.asset"'.</summary>
        public string Label;

        /// <summary>The asset file it is in (saved after a write), or null for a scene object.</summary>
        public string AssetPath;

        public ReferenceScope Scope;
    }

    /// <summary>
    /// The target argument of get/set_serialized_properties, found as the sandbox finds it
    /// (src/sandbox/serialized/targets.ts): {gameObject, component, index} in the scene the
    /// GameObject tools edit; {asset, gameObject?, component, index} in a prefab asset;
    /// {asset} for a ScriptableObject (.asset) or a Material (.mat).
    /// </summary>
    internal static class SerializedTargets
    {
        private static readonly string[] Kinds = { ".asset", ".mat", ".prefab" };

        public static SerializedTarget Resolve(Tools.SerializedTargetArgs args, string tool, bool writable)
        {
            var root = EditorServices.Require().ProjectRoot;
            if (args.Asset == null)
            {
                if (args.GameObject == null) throw Invalid(tool, "target", "it names no object", "Give gameObject and component (a component in the active scene), or asset (a .asset, .mat or .prefab).");
                var gameObject = SceneGraph.Require(args.GameObject);
                return OfComponent(gameObject, args, SceneGraph.PathOf(gameObject), tool, null, new ReferenceScope { SceneAllowed = true, ProjectRoot = root });
            }
            var path = Assets.AssetPaths.Normalize(root, args.Asset, tool, "target.asset", readOnly: !writable);
            var extension = Path.GetExtension(path).ToLowerInvariant();
            if (Array.IndexOf(Kinds, extension) < 0)
            {
                throw Invalid(tool, "target.asset", "\"" + path + "\" is not a ScriptableObject (.asset), Material (.mat) or prefab (.prefab)", "Give one of those; a scene's objects are targets by gameObject and component.");
            }
            var scope = new ReferenceScope { SceneAllowed = false, ProjectRoot = root };
            if (extension == PrefabPaths.Extension)
            {
                var prefab = AssetDatabase.LoadAssetAtPath<GameObject>(path);
                if (prefab == null) throw PrefabPaths.NoPrefab(tool, path, FilesEndingWith(root, extension));
                var inside = args.GameObject == null ? prefab : FindInPrefab(prefab, args.GameObject);
                if (inside == null)
                {
                    throw new TetherException(
                        ErrorCodes.NotFound,
                        "\"" + path + "\" has no GameObject at \"" + args.GameObject + "\". Paths in a prefab start at its root: \"/" + prefab.name + "/…\".",
                        new JObject { ["path"] = path, ["gameObject"] = args.GameObject });
                }
                // ComponentChoices quotes what it is given: the closing and opening quotes here make '"/Enemy" in "Assets/…"'.
                return OfComponent(inside, args, (args.GameObject ?? "/" + prefab.name) + "\" in \"" + path, tool, path, scope);
            }
            if (args.GameObject != null || args.Component != null)
            {
                throw Invalid(tool, "target", "\"" + path + "\" is an asset, not a GameObject with components", "Give asset alone; gameObject and component apply to a prefab (.prefab) or to the active scene.");
            }
            var asset = AssetDatabase.LoadMainAssetAtPath(path);
            if (asset == null)
            {
                var suggestions = ToolSuggestions.Closest(path, FilesEndingWith(root, extension));
                var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
                throw new TetherException(
                    ErrorCodes.NotFound,
                    "No asset at \"" + path + "\"." + hint + " Create it first (ScriptableObjects, materials and prefabs have their own tools).",
                    new JObject { ["path"] = path, ["suggestions"] = new JArray(suggestions) });
            }
            return new SerializedTarget { Object = new SerializedObject(asset), Type = asset.GetType().Name, Label = "\"" + path + "\"", AssetPath = path, Scope = scope };
        }

        /// <summary>A component of <paramref name="gameObject"/> by type name and index; <paramref name="where"/> is its path (unquoted).</summary>
        private static SerializedTarget OfComponent(GameObject gameObject, Tools.SerializedTargetArgs args, string where, string tool, string assetPath, ReferenceScope scope)
        {
            var names = SceneGraph.ComponentNames(gameObject).ToList();
            if (args.Component == null)
            {
                var problem = "\"" + where + "\" is a GameObject: name one of its components (" + string.Join(", ", names) + ")";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": target.component: " + problem + ". Its name, tag, layer and transform are also set by modify_gameobject.",
                    new JObject { ["tool"] = tool, ["field"] = "target.component", ["problem"] = problem, ["components"] = new JArray(names) });
            }
            var matching = gameObject.GetComponents(typeof(Component)).Where(c => c != null && ObjectReferences.Names(c.GetType(), args.Component)).ToList();
            if (args.Index >= matching.Count) throw ComponentChoices.NotFound(where, args.Component, args.Index, matching.Count, names);
            var component = matching[args.Index];
            var type = component.GetType().Name;
            var label = type + (matching.Count > 1 ? " #" + args.Index : "") + " on \"" + where + "\"";
            return new SerializedTarget { Object = new SerializedObject(component), Type = type, Label = label, AssetPath = assetPath, Scope = scope };
        }

        /// <summary>A GameObject of a prefab by its path from the root, the root's name first ("/Enemy/Gun").</summary>
        private static GameObject FindInPrefab(GameObject root, string path)
        {
            var names = HierarchyPath.Split(path);
            if (names[0] != root.name) return null;
            if (names.Length == 1) return root;
            var found = root.transform.Find(string.Join("/", names.Skip(1)));
            return found == null ? null : found.gameObject;
        }

        private static string[] FilesEndingWith(string root, string extension)
        {
            var assets = Path.Combine(root, "Assets");
            if (!Directory.Exists(assets)) return new string[0];
            return Directory.GetFiles(assets, "*" + extension, SearchOption.AllDirectories).Select(file => ProjectPaths.Relative(root, file)).OrderBy(p => p, StringComparer.Ordinal).ToArray();
        }

        private static TetherException Invalid(string tool, string field, string problem, string hint) =>
            new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". " + hint,
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });
    }
}
