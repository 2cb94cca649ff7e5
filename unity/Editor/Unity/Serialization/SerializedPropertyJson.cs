using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// A SerializedProperty's value as JSON, and JSON written into one after its checks, as the
    /// sandbox shows and takes them (src/sandbox/serialized/values.ts): vectors, quaternions and
    /// colors as arrays, rects as {x, y, width, height}, enums by name, structs as objects, arrays
    /// as arrays, references as ObjectReferenceJson gives them. Writes go to the SerializedObject
    /// only; nothing reaches the object before ApplyModifiedProperties, so a refused value leaves
    /// it as it was.
    /// </summary>
    internal static class SerializedPropertyJson
    {
        /// <summary>The property types this tool reads and writes; the others are listed with a note.</summary>
        private static readonly HashSet<SerializedPropertyType> Supported = new HashSet<SerializedPropertyType>
        {
            SerializedPropertyType.Generic, SerializedPropertyType.Integer, SerializedPropertyType.Boolean, SerializedPropertyType.Float,
            SerializedPropertyType.String, SerializedPropertyType.Color, SerializedPropertyType.ObjectReference, SerializedPropertyType.LayerMask,
            SerializedPropertyType.Enum, SerializedPropertyType.Vector2, SerializedPropertyType.Vector3, SerializedPropertyType.Vector4,
            SerializedPropertyType.Rect, SerializedPropertyType.ArraySize, SerializedPropertyType.Character, SerializedPropertyType.Quaternion,
            SerializedPropertyType.Vector2Int, SerializedPropertyType.Vector3Int,
        };

        /// <summary>An array an agent may size: a mistyped 100000000 would fill the editor's memory.</summary>
        public const int MaxArraySize = 100000;

        public static string TypeName(SerializedProperty property) => property.propertyType.ToString();

        public static bool IsSupported(SerializedProperty property) => Supported.Contains(property.propertyType);

        /// <summary>A struct or class holding fields (not an array, not a vector whose parts Unity also lists).</summary>
        public static bool IsStruct(SerializedProperty property) => property.propertyType == SerializedPropertyType.Generic && !property.isArray;

        public static bool IsArray(SerializedProperty property) => property.propertyType == SerializedPropertyType.Generic && property.isArray;

        public static JToken Read(SerializedProperty p)
        {
            switch (p.propertyType)
            {
                case SerializedPropertyType.Integer: return p.longValue;
                case SerializedPropertyType.Boolean: return p.boolValue;
                case SerializedPropertyType.Float: return p.type == "double" ? new JValue(p.doubleValue) : SerializedValues.FromFloat(p.floatValue);
                case SerializedPropertyType.String: return p.stringValue;
                case SerializedPropertyType.Character: return ((char)p.intValue).ToString();
                case SerializedPropertyType.LayerMask:
                case SerializedPropertyType.ArraySize: return p.intValue;
                case SerializedPropertyType.Enum:
                    var names = p.enumNames;
                    var index = p.enumValueIndex;
                    return index >= 0 && index < names.Length ? (JToken)names[index] : p.intValue;
                case SerializedPropertyType.Color: var c = p.colorValue; return Floats(c.r, c.g, c.b, c.a);
                case SerializedPropertyType.Vector2: var v2 = p.vector2Value; return Floats(v2.x, v2.y);
                case SerializedPropertyType.Vector3: var v3 = p.vector3Value; return Floats(v3.x, v3.y, v3.z);
                case SerializedPropertyType.Vector4: var v4 = p.vector4Value; return Floats(v4.x, v4.y, v4.z, v4.w);
                case SerializedPropertyType.Quaternion: var q = p.quaternionValue; return Floats(q.x, q.y, q.z, q.w);
                case SerializedPropertyType.Vector2Int: var i2 = p.vector2IntValue; return new JArray(i2.x, i2.y);
                case SerializedPropertyType.Vector3Int: var i3 = p.vector3IntValue; return new JArray(i3.x, i3.y, i3.z);
                case SerializedPropertyType.Rect:
                    var r = p.rectValue;
                    return new JObject { ["x"] = SerializedValues.FromFloat(r.x), ["y"] = SerializedValues.FromFloat(r.y), ["width"] = SerializedValues.FromFloat(r.width), ["height"] = SerializedValues.FromFloat(r.height) };
                case SerializedPropertyType.ObjectReference: return ObjectReferenceJson.Of(p.objectReferenceValue);
                case SerializedPropertyType.Generic:
                    if (p.isArray) return new JArray(Enumerable.Range(0, p.arraySize).Select(i => Read(p.GetArrayElementAtIndex(i))));
                    var fields = new JObject();
                    foreach (var child in SerializedPropertyLookup.ChildrenOf(p)) fields[child.name] = Read(child);
                    return fields;
                default: return JValue.CreateNull();
            }
        }

        /// <summary>Writes <paramref name="value"/> into the property, checked first; <paramref name="label"/> names it in problems.</summary>
        public static void Write(SerializedProperty p, JToken value, string label, ReferenceScope scope)
        {
            var type = TypeName(p);
            switch (p.propertyType)
            {
                case SerializedPropertyType.Integer: p.longValue = SerializedValues.Integer(value, label); return;
                case SerializedPropertyType.Boolean: p.boolValue = SerializedValues.Boolean(value, label); return;
                case SerializedPropertyType.Float:
                    var number = SerializedValues.Float(value, label);
                    if (p.type == "double") p.doubleValue = number;
                    else p.floatValue = (float)number;
                    return;
                case SerializedPropertyType.String: p.stringValue = SerializedValues.String(value, label); return;
                case SerializedPropertyType.Character: p.intValue = SerializedValues.Character(value, label); return;
                case SerializedPropertyType.LayerMask: p.intValue = SerializedValues.LayerMask(value, label); return;
                case SerializedPropertyType.ArraySize: p.intValue = SerializedValues.ArraySize(value, label, MaxArraySize); return;
                case SerializedPropertyType.Enum: p.enumValueIndex = SerializedValues.EnumIndex(value, p.enumNames, label); return;
                case SerializedPropertyType.Color: var c = F(SerializedValues.Numbers(value, type, label)); p.colorValue = new Color(c[0], c[1], c[2], c[3]); return;
                case SerializedPropertyType.Vector2: var v2 = F(SerializedValues.Numbers(value, type, label)); p.vector2Value = new Vector2 { x = v2[0], y = v2[1] }; return;
                case SerializedPropertyType.Vector3: var v3 = F(SerializedValues.Numbers(value, type, label)); p.vector3Value = new Vector3(v3[0], v3[1], v3[2]); return;
                case SerializedPropertyType.Vector4: var v4 = F(SerializedValues.Numbers(value, type, label)); p.vector4Value = new Vector4(v4[0], v4[1], v4[2], v4[3]); return;
                case SerializedPropertyType.Quaternion:
                    var q = F(SerializedValues.Numbers(value, type, label));
                    p.quaternionValue = new Quaternion { x = q[0], y = q[1], z = q[2], w = q[3] };
                    return;
                case SerializedPropertyType.Vector2Int: var i2 = SerializedValues.Numbers(value, type, label); p.vector2IntValue = new Vector2Int { x = (int)i2[0], y = (int)i2[1] }; return;
                case SerializedPropertyType.Vector3Int: var i3 = SerializedValues.Numbers(value, type, label); p.vector3IntValue = new Vector3Int { x = (int)i3[0], y = (int)i3[1], z = (int)i3[2] }; return;
                case SerializedPropertyType.Rect:
                    var now = p.rectValue;
                    var rect = F(SerializedValues.Rect(value, new double[] { now.x, now.y, now.width, now.height }, label));
                    p.rectValue = new Rect(rect[0], rect[1], rect[2], rect[3]);
                    return;
                case SerializedPropertyType.ObjectReference:
                    // As in the sandbox: a component's script is changed by adding another component, not by this tool.
                    if (p.propertyPath == "m_Script") throw new ValueProblem(label + " is read-only here", "Add the component for another script instead (add_component), and remove this one.");
                    var expected = ObjectReferences.ExpectedType(p.type);
                    var request = ObjectReferences.Parse(value, expected, label, scope.SceneAllowed);
                    p.objectReferenceValue = request == null ? null : ObjectReferenceJson.Resolve(request, expected, label, scope);
                    return;
                case SerializedPropertyType.Generic:
                    if (p.isArray) WriteArray(p, value, label, scope);
                    else WriteStruct(p, value, label, scope);
                    return;
                default:
                    throw new ValueProblem(label + " is " + SerializedValues.Article(type) + ", which this tool does not write", "Edit it in the Inspector, or from a script.");
            }
        }

        private static void WriteArray(SerializedProperty p, JToken value, string label, ReferenceScope scope)
        {
            if (!(value is JArray items)) throw new ValueProblem(label + " is an array, not " + SerializedValues.Describe(value), "Give an array of its elements' values.");
            if (items.Count > MaxArraySize) throw SerializedValues.Wrong("ArraySize", label + ".Array.size", items.Count);
            p.arraySize = items.Count;
            for (var i = 0; i < items.Count; i++) Write(p.GetArrayElementAtIndex(i), items[i], label + "[" + i + "]", scope);
        }

        private static void WriteStruct(SerializedProperty p, JToken value, string label, ReferenceScope scope)
        {
            var fields = SerializedPropertyLookup.ChildrenOf(p).Select(child => child.name).ToList();
            if (!(value is JObject obj)) throw new ValueProblem(label + " is a Generic, not " + SerializedValues.Describe(value), "Give an object of its fields (" + string.Join(", ", fields) + "); fields left out keep their values.");
            foreach (var pair in obj)
            {
                var child = fields.Contains(pair.Key) ? p.FindPropertyRelative(pair.Key) : null;
                if (child == null) throw PropertyProblems.NoFieldInValue(label, pair.Key, fields);
                Write(child, pair.Value, label + "." + pair.Key, scope);
            }
        }

        private static JArray Floats(params float[] values) => new JArray(values.Select(SerializedValues.FromFloat));

        private static float[] F(double[] values) => values.Select(v => (float)v).ToArray();
    }
}
