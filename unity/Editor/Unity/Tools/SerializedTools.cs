using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Scenes;
using Tether.Unity.Serialization;
using UnityEditor;

namespace Tether.Unity.Tools
{
    public sealed class SerializedTargetArgs
    {
        [ToolArg("Path of a GameObject in the active scene, e.g. \"/Player\"; with asset, a GameObject inside that prefab, e.g. \"/Enemy/Gun\" (default: its root).")]
        public string GameObject;

        [ToolArg("The component type on that GameObject, e.g. \"Rigidbody\" or \"MyGame.Health\".")]
        public string Component;

        [ToolArg("Which of several components of that type, from 0.", Minimum = 0, Maximum = 1000)]
        public int Index = 0;

        [ToolArg("Project-relative path of an asset: a ScriptableObject (.asset), a Material (.mat), or a prefab (.prefab, with component).")]
        public string Asset;
    }

    public sealed class GetSerializedPropertiesArgs
    {
        [ToolArg(SerializedTools.TargetDescription, Required = true)]
        public SerializedTargetArgs Target;

        [ToolArg("Only this property, e.g. \"m_Mass\", \"stats\", \"waypoints[2]\" or \"waypoints.Array.data[2]\". Default: every top-level property.")]
        public string Path;

        [ToolArg("How many levels to list: 1 the properties alone (each with its whole value), 2 also their fields and elements, …", Minimum = 1, Maximum = 16)]
        public int Depth = 1;
    }

    public sealed class PropertyWrite
    {
        [ToolArg("The property, e.g. \"m_Mass\", \"stats.maxHealth\", \"waypoints[2]\", \"waypoints.Array.size\".", Required = true, MinLength = 1)]
        public string Path;

        [ToolArg("Its new value as JSON, of the property's type (get_serialized_properties shows each type).", Required = true)]
        public JToken Value;
    }

    public sealed class SetSerializedPropertiesArgs
    {
        [ToolArg(SerializedTools.TargetDescription, Required = true)]
        public SerializedTargetArgs Target;

        [ToolArg(Required = true, MinLength = 1, MaxLength = 100)]
        public List<PropertyWrite> Properties;
    }

    public sealed class SerializedPropertyEntry
    {
        [ToolArg("Unity's propertyPath, e.g. \"waypoints.Array.data[2]\".", Required = true)]
        public string Path;

        [ToolArg("The SerializedPropertyType: Integer, Float, Boolean, String, Enum, Color, Vector3, ObjectReference, Generic, ArraySize, …", Required = true)]
        public string Type;

        [ToolArg("The value as JSON: vectors and colors as arrays, enums by name, structs as objects, arrays as arrays, references read as {\"asset\": \"Assets/…\"}, {\"gameObject\": \"/Path\"} or {\"gameObject\": \"/Path\", \"component\": \"Type\"}.", Required = true)]
        public JToken Value;

        public bool? IsArray;

        public int? ArraySize;

        public List<string> EnumNames;

        [ToolArg("What a reference takes, e.g. \"Material\".")]
        public string ObjectType;

        public string Note;
    }

    public sealed class GetSerializedPropertiesResult
    {
        [ToolArg("The object's class, e.g. \"Rigidbody\", \"Material\", \"EnemyStats\".", Required = true)]
        public string Type;

        [ToolArg(Required = true)]
        public List<SerializedPropertyEntry> Properties;

        [ToolArg("True when the listing stopped at 1000 properties: ask for a path or a smaller depth.")]
        public bool Truncated;

        public string Note;
    }

    public sealed class WrittenProperty
    {
        [ToolArg(Required = true)]
        public string Path;

        [ToolArg(Required = true)]
        public string Type;

        [ToolArg("The value before this call.", Required = true)]
        public JToken Previous;

        [ToolArg("The value now.", Required = true)]
        public JToken Value;
    }

    public sealed class SetSerializedPropertiesResult
    {
        [ToolArg(Required = true)]
        public string Type;

        [ToolArg(Required = true)]
        public List<WrittenProperty> Properties;
    }

    /// <summary>
    /// Serialized fields of components and assets by SerializedProperty path (the sandbox's
    /// src/sandbox/tools/serialized-tools.ts). A write checks every value against its property
    /// before anything is applied (the SerializedObject holds the changes until then), and is one
    /// Undo group (ApplyModifiedProperties records it).
    /// </summary>
    public static class SerializedTools
    {
        internal const string TargetDescription = "The object: {gameObject, component} in the active scene, {asset} for a ScriptableObject or Material, {asset, component} for a prefab.";

        [TetherTool("get_serialized_properties", Title = "Get serialized properties",
            Description = "Reads the serialized fields of a component (in the active scene or a prefab) or of an asset (ScriptableObject, Material), as Unity's SerializedObject shows them: each property's path, type and value. With path, only that property; depth lists nested fields and array elements too.",
            ReadOnly = true, Idempotent = true, Output = typeof(GetSerializedPropertiesResult))]
        public static object GetSerializedProperties(GetSerializedPropertiesArgs args)
        {
            const string tool = "get_serialized_properties";
            var target = SerializedTargets.Resolve(args.Target, tool, writable: false);
            var from = args.Path == null ? null : About("path", () => SerializedPropertyLookup.Find(target.Object, PropertyPaths.Parse(args.Path, tool, "path"), target.Label));
            var (entries, truncated) = PropertyListing.List(target.Object, from, args.Depth);
            return new JObject { ["type"] = target.Type, ["properties"] = entries, ["truncated"] = truncated };
        }

        [TetherTool("set_serialized_properties", Title = "Set serialized properties",
            Description = "Writes serialized fields of a component (in the active scene or a prefab) or of an asset (ScriptableObject, Material) by SerializedProperty path, in order, as one undo step: numbers, strings, enums (by name), vectors and colors as arrays, structs as objects, whole arrays, \"x.Array.size\", and references ({\"asset\": \"Assets/…\"}, {\"gameObject\": \"/Path\", \"component\": \"Type\"}, null). Every value is checked against its field's type first: one wrong value and nothing is written.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(SetSerializedPropertiesResult))]
        public static object SetSerializedProperties(SetSerializedPropertiesArgs args)
        {
            const string tool = "set_serialized_properties";
            var target = SerializedTargets.Resolve(args.Target, tool, writable: true);
            var changes = new JArray();
            for (var n = 0; n < args.Properties.Count; n++)
            {
                var write = args.Properties[n];
                var field = "properties[" + n + "]";
                var property = About(field + ".path", () => SerializedPropertyLookup.Find(target.Object, PropertyPaths.Parse(write.Path, tool, field + ".path"), target.Label));
                var type = SerializedPropertyJson.TypeName(property);
                var previous = SerializedPropertyJson.Read(property);
                try
                {
                    SerializedPropertyJson.Write(property, write.Value ?? JValue.CreateNull(), property.propertyPath, target.Scope);
                }
                catch (ValueProblem problem)
                {
                    throw new TetherException(
                        ErrorCodes.InvalidArguments,
                        "Invalid arguments for " + tool + ": " + field + ".value: " + problem.Problem + ". " + problem.Hint,
                        new JObject { ["tool"] = tool, ["field"] = field + ".value", ["problem"] = problem.Problem, ["path"] = property.propertyPath, ["expected"] = type });
                }
                changes.Add(new JObject { ["path"] = property.propertyPath, ["type"] = type, ["previous"] = previous, ["value"] = SerializedPropertyJson.Read(property) });
            }
            var name = changes.Count == 1 ? "Set " + changes[0]["path"] + " of " + target.Label : "Set " + changes.Count + " properties of " + target.Label;
            using (new UndoGroup(name))
            {
                target.Object.ApplyModifiedProperties();
            }
            // The sandbox writes an asset's file at once; Unity keeps it dirty until saved.
            if (target.AssetPath != null) AssetDatabase.SaveAssetIfDirty(AssetDatabase.LoadMainAssetAtPath(target.AssetPath));
            // A component in the scene is put back when play mode exits; an asset (or a prefab's component) is not.
            return PlayModeEdits.Noted(new JObject { ["type"] = target.Type, ["properties"] = changes }, inScene: target.AssetPath == null);
        }

        /// <summary>Tells which argument a NOT_FOUND is about.</summary>
        private static T About<T>(string field, System.Func<T> find)
        {
            try
            {
                return find();
            }
            catch (TetherException error) when (error.Code == ErrorCodes.NotFound)
            {
                throw error.With(new JObject { ["field"] = field });
            }
        }
    }
}
