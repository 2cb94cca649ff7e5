using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using UnityEditor;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// get_serialized_properties' entries: a property (or every top-level one) and depth - 1
    /// levels of children (a struct's fields; an array's size and elements), at most MaxEntries,
    /// each { path, type, value, isArray?, arraySize?, enumNames?, objectType?, note? } as the
    /// sandbox lists them (src/sandbox/serialized/property-tree.ts).
    /// </summary>
    internal static class PropertyListing
    {
        public const int MaxEntries = 1000;

        public static (JArray Entries, bool Truncated) List(SerializedObject target, SerializedProperty from, int depth)
        {
            var entries = new JArray();
            var truncated = false;
            void Visit(SerializedProperty property, int level)
            {
                if (entries.Count >= MaxEntries)
                {
                    truncated = true;
                    return;
                }
                entries.Add(Entry(property));
                if (level >= depth) return;
                if (SerializedPropertyJson.IsArray(property))
                {
                    Visit(property.FindPropertyRelative("Array.size"), level + 1);
                    for (var i = 0; i < property.arraySize; i++) Visit(property.GetArrayElementAtIndex(i), level + 1);
                }
                else if (SerializedPropertyJson.IsStruct(property))
                {
                    foreach (var child in SerializedPropertyLookup.ChildrenOf(property)) Visit(child, level + 1);
                }
            }
            var roots = from != null ? new List<SerializedProperty> { from } : SerializedPropertyLookup.TopLevel(target).ToList();
            foreach (var root in roots) Visit(root, 1);
            return (entries, truncated);
        }

        public static JObject Entry(SerializedProperty property)
        {
            var type = SerializedPropertyJson.TypeName(property);
            var entry = new JObject { ["path"] = property.propertyPath, ["type"] = type };
            if (!SerializedPropertyJson.IsSupported(property))
            {
                entry["value"] = JValue.CreateNull();
                entry["note"] = type + " values are not read or written by this tool.";
                return entry;
            }
            entry["value"] = SerializedPropertyJson.Read(property);
            if (SerializedPropertyJson.IsArray(property))
            {
                entry["isArray"] = true;
                entry["arraySize"] = property.arraySize;
            }
            if (property.propertyType == SerializedPropertyType.Enum) entry["enumNames"] = new JArray(property.enumNames);
            if (property.propertyType == SerializedPropertyType.ObjectReference) entry["objectType"] = ObjectReferences.ExpectedType(property.type);
            return entry;
        }
    }
}
