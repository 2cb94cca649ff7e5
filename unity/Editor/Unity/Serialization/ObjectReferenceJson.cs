using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Unity.Paths;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;
using Object = UnityEngine.Object;

namespace Tether.Unity.Serialization
{
    /// <summary>Where a reference is written from: an object in a scene may reference that scene's objects; an asset may not.</summary>
    internal sealed class ReferenceScope
    {
        public bool SceneAllowed;
        public string ProjectRoot;
    }

    /// <summary>
    /// References between Unity objects and their JSON (the sandbox's src/sandbox/serialized/references.ts):
    /// an asset as {"asset": path} (a built-in resource or a sub-asset with its "name", a prefab's
    /// component with its "component"), a scene object as {"gameObject": path} or
    /// {"gameObject": path, "component": type}; and a request found in the project or the scene,
    /// checked against the class the field takes, as Unity's ObjectField checks it.
    /// </summary>
    internal static class ObjectReferenceJson
    {
        public static JToken Of(Object target)
        {
            if (target == null) return JValue.CreateNull();
            if (EditorUtility.IsPersistent(target))
            {
                var path = AssetDatabase.GetAssetPath(target);
                if (target is Component component) return new JObject { ["asset"] = path, ["component"] = component.GetType().Name };
                if (AssetDatabase.IsMainAsset(target)) return new JObject { ["asset"] = path };
                return new JObject { ["asset"] = path, ["name"] = target.name };
            }
            if (target is GameObject gameObject) return new JObject { ["gameObject"] = SceneGraph.PathOf(gameObject) };
            if (target is Component part) return new JObject { ["gameObject"] = SceneGraph.PathOf(part.gameObject), ["component"] = part.GetType().Name };
            return JValue.CreateNull();
        }

        /// <summary>The object <paramref name="request"/> names, of the class <paramref name="expected"/>; a ValueProblem saying why not.</summary>
        public static Object Resolve(ReferenceRequest request, string expected, string label, ReferenceScope scope)
        {
            ValueProblem Problem(string why) => ObjectReferences.Problem(expected, label, why, scope.SceneAllowed);
            if (request.GameObject != null)
            {
                var found = SceneGraph.Find(request.GameObject);
                if (found == null) throw Problem("there is no GameObject at \"" + request.GameObject + "\" in the scene \"" + SceneGraph.Scene.name + "\"");
                return Pick(found, request.Component, expected, "\"" + request.GameObject + "\"", Problem);
            }
            if (ObjectReferences.IsBuiltin(request.Asset))
            {
                var builtin = AssetDatabase.LoadAllAssetsAtPath(request.Asset).FirstOrDefault(o => o != null && o.name == request.Name);
                if (builtin == null) throw Problem("\"" + request.Asset + "\" holds no \"" + request.Name + "\"");
                if (!ObjectReferences.IsAssignable(builtin.GetType(), expected)) throw Problem("\"" + request.Name + "\" is a " + builtin.GetType().Name);
                return builtin;
            }
            var path = ProjectPaths.Relative(scope.ProjectRoot, ProjectPaths.ResolveInside(scope.ProjectRoot, request.Asset));
            var main = AssetDatabase.LoadMainAssetAtPath(path);
            if (main == null) throw Problem("there is no asset at \"" + path + "\"");
            if (main is GameObject prefab && (request.Component != null || !ObjectReferences.IsAssignable(typeof(GameObject), expected)))
            {
                return Pick(prefab, request.Component, expected, "\"" + path + "\"", Problem);
            }
            if (request.Component != null) throw Problem("\"" + path + "\" is a " + main.GetType().Name + ", not a prefab with components");
            if (ObjectReferences.IsAssignable(main.GetType(), expected)) return main;
            // A texture imported as a sprite holds its Sprite: Unity's ObjectField takes the image for a Sprite field.
            var sub = AssetDatabase.LoadAllAssetsAtPath(path).FirstOrDefault(o => o != null && ObjectReferences.IsAssignable(o.GetType(), expected));
            if (sub != null && expected == "Sprite") return sub;
            throw Problem("\"" + path + "\" is a " + main.GetType().Name);
        }

        /// <summary>The component a reference to <paramref name="gameObject"/> means: the one named, or the first that fits; the GameObject itself for a GameObject field.</summary>
        private static Object Pick(GameObject gameObject, string component, string expected, string where, System.Func<string, ValueProblem> problem)
        {
            var components = gameObject.GetComponents(typeof(Component)).Where(c => c != null).ToList();
            var names = string.Join(", ", components.Select(c => c.GetType().Name));
            if (component != null)
            {
                var named = components.FirstOrDefault(c => ObjectReferences.Names(c.GetType(), component));
                if (named == null) throw problem(where + " has no " + component + " (its components: " + names + ")");
                if (!ObjectReferences.IsAssignable(named.GetType(), expected)) throw problem("a " + component + " is no " + expected);
                return named;
            }
            if (ObjectReferences.IsAssignable(typeof(GameObject), expected)) return gameObject;
            var fitting = components.FirstOrDefault(c => ObjectReferences.IsAssignable(c.GetType(), expected));
            if (fitting == null) throw problem(where + " has no component that is one (its components: " + names + ")");
            return fitting;
        }
    }
}
