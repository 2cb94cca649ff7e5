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
                if (target is Component component) return ObjectReferences.AssetJson(path, null, component.GetType().Name);
                return ObjectReferences.AssetJson(path, AssetDatabase.IsMainAsset(target) ? null : target.name, null);
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
            if (request.Name != null)
            {
                var objects = ObjectsAt(path, main, expected, out var facts);
                return objects[SubAssets.Named(facts, path, request.Name, expected, Problem)];
            }
            if (main is GameObject prefab && (request.Component != null || !ObjectReferences.IsAssignable(typeof(GameObject), expected)))
            {
                // A field no component of the root fits (a model's Mesh or AnimationClip, an object added to a prefab) takes the one sub-asset that does.
                if (request.Component == null && !prefab.GetComponents(typeof(Component)).Any(c => c != null && ObjectReferences.IsAssignable(c.GetType(), expected)))
                {
                    var sub = OnlyFitting(path, main, expected, Problem);
                    if (sub != null) return sub;
                }
                return Pick(prefab, request.Component, expected, "\"" + path + "\"", Problem);
            }
            if (request.Component != null) throw Problem("\"" + path + "\" is a " + main.GetType().Name + ", not a prefab with components");
            if (ObjectReferences.IsAssignable(main.GetType(), expected)) return main;
            // A texture imported as a sprite holds its Sprite: Unity's ObjectField takes the image for a Sprite field; so for any one sub-asset that fits.
            return OnlyFitting(path, main, expected, Problem) ?? throw Problem("\"" + path + "\" is a " + main.GetType().Name);
        }

        /// <summary>The objects at <paramref name="path"/> (the main asset and its sub-assets) and, in <paramref name="facts"/>, what SubAssets chooses them by.</summary>
        private static Object[] ObjectsAt(string path, Object main, string expected, out AssetObject[] facts)
        {
            var objects = AssetDatabase.LoadAllAssetsAtPath(path).Where(o => o != null).ToArray();
            facts = objects.Select(o => new AssetObject(o.name, o.GetType().Name, ObjectReferences.IsAssignable(o.GetType(), expected), o == main, o is Component)).ToArray();
            return objects;
        }

        /// <summary>The one sub-asset at <paramref name="path"/> that fits a field of <paramref name="expected"/>; null when none does.</summary>
        private static Object OnlyFitting(string path, Object main, string expected, System.Func<string, ValueProblem> problem)
        {
            var objects = ObjectsAt(path, main, expected, out var facts);
            var index = SubAssets.OnlyFitting(facts, path, main.GetType().Name, expected, problem);
            return index < 0 ? null : objects[index];
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
