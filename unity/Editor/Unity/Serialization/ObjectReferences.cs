using System;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Serialization
{
    /// <summary>What a reference value asks for: an asset (a built-in resource or a sub-asset by name, a prefab's component), or a scene object.</summary>
    internal sealed class ReferenceRequest
    {
        public string Asset;
        public string Name;
        public string GameObject;
        public string Component;
    }

    /// <summary>
    /// Object references as agents write and read them, in the sandbox's words
    /// (src/sandbox/serialized/references.ts): {"asset": "Assets/…"} ("name" picks a built-in
    /// resource or an object in the asset, a sub-asset such as a model's Mesh or one sprite of a
    /// sheet; "component" a component of a prefab's root), {"gameObject": "/Path"},
    /// {"gameObject": "/Path", "component": "Type"}, or null; and the field type a reference
    /// property takes, read from SerializedProperty.type ("PPtr&lt;$Material&gt;"). Unity-free.
    /// </summary>
    internal static class ObjectReferences
    {
        public const string DefaultResources = "Library/unity default resources";
        public const string BuiltinExtra = "Resources/unity_builtin_extra";

        private static readonly string[] Keys = { "asset", "name", "component", "gameObject" };

        /// <summary>Whether a path is one of Unity's built-in resource files (not files: assets holding objects by name).</summary>
        public static bool IsBuiltin(string asset) => asset == DefaultResources || asset == BuiltinExtra;

        /// <summary>The problem of a reference for a field of <paramref name="objectType"/>, with the hint for where the object lives.</summary>
        public static ValueProblem Problem(string objectType, string label, string why, bool sceneAllowed) =>
            new ValueProblem(
                label + " takes a " + objectType + ", and " + why,
                "Give {\"asset\": \"Assets/…\"}" + (sceneAllowed ? ", {\"gameObject\": \"/Path\"}, {\"gameObject\": \"/Path\", \"component\": \"Type\"}" : "") + " or null.");

        /// <summary>The request <paramref name="value"/> makes; null for null. Checks its shape only (the objects are found in Unity).</summary>
        public static ReferenceRequest Parse(JToken value, string objectType, string label, bool sceneAllowed)
        {
            if (value == null || value.Type == JTokenType.Null) return null;
            if (!(value is JObject obj)) throw Problem(objectType, label, value.ToString(Newtonsoft.Json.Formatting.None) + " is no reference", sceneAllowed);
            var unknown = obj.Properties().Select(p => p.Name).FirstOrDefault(name => Array.IndexOf(Keys, name) < 0);
            if (unknown != null) throw Problem(objectType, label, "a reference has no key \"" + unknown + "\"", sceneAllowed);
            var component = obj["component"];
            if (component != null && component.Type != JTokenType.String) throw Problem(objectType, label, "\"component\" must be a type name", sceneAllowed);
            var request = new ReferenceRequest { Component = (string)component };
            if (obj["gameObject"] is JValue gameObject && gameObject.Type == JTokenType.String)
            {
                if (!sceneAllowed) throw Problem(objectType, label, "an asset cannot reference a scene object (Unity would drop it on save); reference an asset instead", false);
                request.GameObject = (string)gameObject;
                return request;
            }
            if (!(obj["asset"] is JValue asset) || asset.Type != JTokenType.String) throw Problem(objectType, label, "a reference names an \"asset\" or a \"gameObject\"", sceneAllowed);
            request.Asset = ((string)asset).Replace('\\', '/');
            var name = obj["name"];
            if (name != null)
            {
                if (IsBuiltin(request.Asset))
                {
                    if (name.Type != JTokenType.String) throw Problem(objectType, label, "\"name\" must be a built-in resource's name", sceneAllowed);
                }
                else
                {
                    if (name.Type != JTokenType.String) throw Problem(objectType, label, "\"name\" must be the name of an object in the asset (a sub-asset)", sceneAllowed);
                    if (request.Component != null) throw Problem(objectType, label, "\"name\" picks an object in the asset and \"component\" a component of a prefab's root: give one of them", sceneAllowed);
                }
                request.Name = (string)name;
            }
            else if (IsBuiltin(request.Asset))
            {
                throw Problem(objectType, label, "\"" + request.Asset + "\" holds Unity's built-in resources: give one as \"name\"", sceneAllowed);
            }
            return request;
        }

        /// <summary>
        /// The JSON of a reference to an object in an asset file (ObjectReferenceJson.Of): {"asset": path} for
        /// the main asset, with the <paramref name="subAsset"/>'s "name" for a sub-asset, with "component"
        /// for a prefab's component. Parse reads each back.
        /// </summary>
        public static JObject AssetJson(string path, string subAsset, string component)
        {
            var json = new JObject { ["asset"] = path };
            if (component != null) json["component"] = component;
            else if (subAsset != null) json["name"] = subAsset;
            return json;
        }

        /// <summary>The class a reference property takes, from its SerializedProperty.type: "PPtr&lt;$Material&gt;" → "Material"; "Object" when unknown.</summary>
        public static string ExpectedType(string serializedType)
        {
            if (string.IsNullOrEmpty(serializedType) || !serializedType.StartsWith("PPtr<", StringComparison.Ordinal) || !serializedType.EndsWith(">", StringComparison.Ordinal)) return "Object";
            var inner = serializedType.Substring(5, serializedType.Length - 6).TrimStart('$');
            return inner.Length > 0 ? inner : "Object";
        }

        /// <summary>Whether an object of <paramref name="type"/> fits a field of the class named <paramref name="expected"/> (by its name or a base's; "Object" takes anything).</summary>
        public static bool IsAssignable(Type type, string expected)
        {
            if (expected == "Object") return true;
            for (var current = type; current != null; current = current.BaseType)
            {
                if (current.Name == expected || current.FullName == expected) return true;
            }
            return false;
        }

        /// <summary>Whether a component type is the one <paramref name="name"/> names (short or full, "MyGame.Health").</summary>
        public static bool Names(Type type, string name) =>
            type.Name == name || type.FullName == name || (name.Contains(".") && type.Name == name.Substring(name.LastIndexOf('.') + 1));
    }
}
