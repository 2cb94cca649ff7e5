using System.Collections.Generic;
using System.Linq;
using UnityEditor;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// Properties of a SerializedObject found by path, and their children, as the sandbox's
    /// PropertyTree finds them (src/sandbox/serialized/property-tree.ts). A path FindProperty
    /// does not know is walked again step by step, to say which step fails and what is there
    /// instead (PropertyProblems).
    /// </summary>
    internal static class SerializedPropertyLookup
    {
        /// <summary>The visible top-level properties, in Unity's order.</summary>
        public static IEnumerable<SerializedProperty> TopLevel(SerializedObject target)
        {
            var iterator = target.GetIterator();
            if (!iterator.NextVisible(true)) yield break;
            do
            {
                yield return iterator.Copy();
            }
            while (iterator.NextVisible(false));
        }

        /// <summary>The visible fields of a struct property (not the parts of a vector: those are PartsOf).</summary>
        public static IEnumerable<SerializedProperty> ChildrenOf(SerializedProperty property)
        {
            var child = property.Copy();
            var end = property.GetEndProperty();
            if (!child.NextVisible(true)) yield break;
            while (!SerializedProperty.EqualContents(child, end))
            {
                if (child.depth == property.depth + 1) yield return child.Copy();
                if (!child.NextVisible(false)) yield break;
            }
        }

        /// <summary>The property at <paramref name="segments"/>; NOT_FOUND saying what is there instead. <paramref name="owner"/> names the object.</summary>
        public static SerializedProperty Find(SerializedObject target, IReadOnlyList<PropertyPaths.Segment> segments, string owner)
        {
            var direct = target.FindProperty(PropertyPaths.ToUnity(segments));
            if (direct != null) return direct;
            var first = segments[0].Name;
            var current = target.FindProperty(first);
            if (current == null) throw PropertyProblems.NoProperty(owner, first, TopLevel(target).Select(p => p.name).ToList());
            var path = first;
            for (var n = 1; n < segments.Count; n++)
            {
                var segment = segments[n];
                var type = SerializedPropertyJson.TypeName(current);
                if (current.propertyType == SerializedPropertyType.ArraySize) throw PropertyProblems.SizeHasNoFields(path);
                if (SerializedPropertyJson.IsArray(current))
                {
                    var isSize = !segment.IsIndex && segment.Name == "Array" && n + 2 == segments.Count && segments[n + 1].Name == "size";
                    if (isSize) return current.FindPropertyRelative("Array.size");
                    if (!segment.IsIndex) throw PropertyProblems.IsArray(path);
                    if (segment.Index >= current.arraySize) throw PropertyProblems.OutOfRange(path, current.arraySize, segment.Index);
                    current = current.GetArrayElementAtIndex(segment.Index);
                    path += ".Array.data[" + segment.Index + "]";
                    continue;
                }
                if (segment.IsIndex) throw PropertyProblems.NotArray(path, type);
                var fields = FieldNames(current);
                var child = fields.Contains(segment.Name) ? current.FindPropertyRelative(segment.Name) : null;
                if (child == null)
                {
                    throw fields.Count > 0 ? PropertyProblems.NoField(path, segment.Name, fields) : PropertyProblems.NoFields(path, type);
                }
                current = child;
                path += "." + segment.Name;
            }
            return current;
        }

        /// <summary>The names a path may take after a property: a struct's fields, a vector's or rect's parts.</summary>
        private static IReadOnlyList<string> FieldNames(SerializedProperty property)
        {
            if (SerializedPropertyJson.IsStruct(property)) return ChildrenOf(property).Select(p => p.name).ToList();
            if (property.propertyType == SerializedPropertyType.Rect) return SerializedValues.RectParts;
            return (IReadOnlyList<string>)SerializedValues.PartsOf(SerializedPropertyJson.TypeName(property)) ?? new string[0];
        }
    }
}
