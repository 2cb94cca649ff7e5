using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// The active scene's GameObjects as the scene tools see them: paths from the scene root,
    /// children in hierarchy order (inactive ones included), and the JSON shapes the sandbox
    /// editor gives them. Main thread only.
    /// </summary>
    internal static class SceneGraph
    {
        /// <summary>The scene the tools read and edit: the active one (where new objects go, as in Unity), or the prefab open in prefab mode.</summary>
        public static Scene Scene => Prefabs.PrefabStages.EditedScene();

        public static IEnumerable<GameObject> Roots()
        {
            var scene = Scene;
            if (!scene.IsValid() || !scene.isLoaded) return Enumerable.Empty<GameObject>();
            return scene.GetRootGameObjects();
        }

        public static IEnumerable<GameObject> Children(GameObject gameObject)
        {
            var transform = gameObject.transform;
            var count = transform.childCount;
            for (var i = 0; i < count; i++) yield return transform.GetChild(i).gameObject;
        }

        public static string NameOf(GameObject gameObject) => gameObject.name;

        public static GameObject Find(string path) => HierarchyPath.Find(Roots(), NameOf, Children, path);

        /// <summary>The object at <paramref name="path"/>; NOT_FOUND (data: path) when there is none.</summary>
        public static GameObject Require(string path)
        {
            var found = Find(path);
            if (found != null) return found;
            throw new TetherException(
                ErrorCodes.NotFound,
                "No GameObject at \"" + path + "\" in the scene \"" + Scene.name + "\". Use get_hierarchy or find_gameobjects to see what exists.",
                new JObject { ["path"] = path });
        }

        /// <summary>Whether <paramref name="transform"/> is <paramref name="ancestor"/> or under it (Unity's == on each parent).</summary>
        public static bool IsWithin(Transform transform, Transform ancestor)
        {
            for (var current = transform; current != null; current = current.parent)
            {
                if (current == ancestor) return true;
            }
            return false;
        }

        public static string PathOf(GameObject gameObject)
        {
            var names = new List<string>();
            for (var transform = gameObject.transform; transform != null; transform = transform.parent) names.Add(transform.gameObject.name);
            names.Reverse();
            return HierarchyPath.Join(names);
        }

        /// <summary>The components' type names, Transform first (a missing script shows as "Missing Script").</summary>
        public static IEnumerable<string> ComponentNames(GameObject gameObject) =>
            gameObject.GetComponents(typeof(Component)).Select(component => component == null ? "Missing Script" : component.GetType().Name);

        /// <summary>get_hierarchy's nodes under <paramref name="roots"/>, each with its prefab status as Describe gives it.</summary>
        public static JArray Hierarchy(IEnumerable<GameObject> roots, int depth, string parentPath) =>
            HierarchyPath.Describe(roots, depth, parentPath, NameOf, go => go.activeSelf, ComponentNames, Children, Prefabs.PrefabStatus.AddTo);

        /// <summary>{ id, name, path, active, tag, position, rotation, scale, layer, components: [{ type }], prefab? } (local transform).</summary>
        public static JObject Describe(GameObject gameObject)
        {
            var transform = gameObject.transform;
            var position = transform.localPosition;
            var rotation = transform.localEulerAngles;
            var scale = transform.localScale;
            var described = new JObject
            {
                ["id"] = gameObject.GetInstanceID(),
                ["name"] = gameObject.name,
                ["path"] = PathOf(gameObject),
                ["active"] = gameObject.activeSelf,
                ["tag"] = gameObject.tag,
                ["position"] = Vectors.ToJson(position.x, position.y, position.z),
                ["rotation"] = Vectors.ToJson(rotation.x, rotation.y, rotation.z),
                ["scale"] = Vectors.ToJson(scale.x, scale.y, scale.z),
                ["layer"] = gameObject.layer,
                ["components"] = new JArray(ComponentNames(gameObject).Select(name => new JObject { ["type"] = name })),
            };
            Prefabs.PrefabStatus.AddTo(described, gameObject);
            return described;
        }
    }
}
