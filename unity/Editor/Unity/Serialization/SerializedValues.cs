using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Serialization
{
    /// <summary>A value that does not fit its property: Problem says why, Hint what to give instead.</summary>
    internal sealed class ValueProblem : Exception
    {
        public ValueProblem(string problem, string hint)
            : base(problem)
        {
            Problem = problem;
            Hint = hint;
        }

        public string Problem { get; }

        public string Hint { get; }
    }

    /// <summary>
    /// Values agents write for serialized properties, checked against the property's type before
    /// anything is written, in the sandbox's words (src/sandbox/serialized/values.ts): numbers,
    /// booleans, strings, enums by name or index, vectors and colors as arrays, rects as objects.
    /// Unity-free, so the checks are tested under dotnet.
    /// </summary>
    internal static class SerializedValues
    {
        private static readonly Dictionary<string, string[]> Parts = new Dictionary<string, string[]>
        {
            ["Vector2"] = new[] { "x", "y" },
            ["Vector3"] = new[] { "x", "y", "z" },
            ["Vector4"] = new[] { "x", "y", "z", "w" },
            ["Quaternion"] = new[] { "x", "y", "z", "w" },
            ["Color"] = new[] { "r", "g", "b", "a" },
            ["Vector2Int"] = new[] { "x", "y" },
            ["Vector3Int"] = new[] { "x", "y", "z" },
        };

        public static readonly string[] RectParts = { "x", "y", "width", "height" };

        /// <summary>The names of a vector type's parts ("m_LocalPosition.y"), or null for another type.</summary>
        public static string[] PartsOf(string type) => type != null && Parts.TryGetValue(type, out var parts) ? parts : null;

        /// <summary>What a property of <paramref name="type"/> takes, said to an agent: "a number, e.g. 1.5".</summary>
        public static string Expected(string type, IReadOnlyList<string> enumNames = null, string objectType = null)
        {
            switch (type)
            {
                case "Integer": return "a whole number, e.g. 3";
                case "Float": return "a number, e.g. 1.5";
                case "LayerMask": return "a whole number of layer bits, e.g. 1 for Default alone, -1 for every layer";
                case "Boolean": return "true or false";
                case "String": return "a string";
                case "Character": return "a string of one character";
                case "Enum": return "one of " + string.Join(", ", (enumNames ?? Array.Empty<string>()).Select(n => "\"" + n + "\"")) + " (or its index from 0)";
                case "Rect": return "{\"x\": 0, \"y\": 0, \"width\": 1, \"height\": 1}";
                case "ObjectReference": return "a reference to a " + objectType + ": {\"asset\": \"Assets/…\"}, {\"gameObject\": \"/Path\"}, {\"gameObject\": \"/Path\", \"component\": \"Type\"}, or null";
                case "ArraySize": return "a whole number from 0";
            }
            var parts = PartsOf(type);
            if (parts == null) return "nothing: this tool does not write that type";
            var whole = type == "Vector2Int" || type == "Vector3Int" ? "whole numbers" : "numbers";
            return "[" + string.Join(", ", parts) + "], " + parts.Length + " " + whole + (type == "Color" ? " from 0 to 1" : "");
        }

        /// <summary>"a Float", "an Integer".</summary>
        public static string Article(string word) => ("AEIOU".IndexOf(word.Length > 0 ? word[0] : 'x') >= 0 ? "an " : "a ") + word;

        /// <summary>A JSON value as a problem names it: "the string \"heavy\"", "an array of 2".</summary>
        public static string Describe(JToken value)
        {
            if (value == null || value.Type == JTokenType.Null) return "null";
            if (value is JArray array) return "an array of " + array.Count;
            if (value is JObject) return "an object";
            if (value.Type == JTokenType.String)
            {
                var text = (string)value;
                return "the string " + JValue.CreateString(text.Length > 40 ? text.Substring(0, 40) + "…" : text).ToString(Newtonsoft.Json.Formatting.None);
            }
            var kind = value.Type == JTokenType.Boolean ? "boolean" : "number";
            return kind + " " + value.ToString(Newtonsoft.Json.Formatting.None);
        }

        public static ValueProblem Wrong(string type, string label, JToken value, IReadOnlyList<string> enumNames = null, string objectType = null) =>
            new ValueProblem(label + " is " + Article(type) + ", not " + Describe(value), "Give " + Expected(type, enumNames, objectType) + ".");

        public static long Integer(JToken value, string label)
        {
            if (value is JValue v && v.Type == JTokenType.Integer) return (long)v;
            if (value is JValue f && f.Type == JTokenType.Float && IsWhole((double)f)) return (long)(double)f;
            throw Wrong("Integer", label, value);
        }

        public static double Float(JToken value, string label)
        {
            if (value is JValue v && (v.Type == JTokenType.Integer || v.Type == JTokenType.Float))
            {
                var number = (double)v;
                if (!double.IsNaN(number) && !double.IsInfinity(number)) return number;
            }
            throw Wrong("Float", label, value);
        }

        public static bool Boolean(JToken value, string label) =>
            value is JValue v && v.Type == JTokenType.Boolean ? (bool)v : throw Wrong("Boolean", label, value);

        public static string String(JToken value, string label) =>
            value is JValue v && v.Type == JTokenType.String ? (string)v : throw Wrong("String", label, value);

        public static char Character(JToken value, string label)
        {
            var text = value is JValue v && v.Type == JTokenType.String ? (string)v : null;
            if (text != null && text.Length == 1) return text[0];
            throw Wrong("Character", label, value);
        }

        /// <summary>Layer bits as Unity's intValue holds them: -2^31 to 2^32-1, the upper half read as negative.</summary>
        public static int LayerMask(JToken value, string label)
        {
            if (value is JValue v && v.Type == JTokenType.Integer)
            {
                var bits = (long)v;
                if (bits >= int.MinValue && bits <= uint.MaxValue) return unchecked((int)bits);
            }
            throw Wrong("LayerMask", label, value);
        }

        /// <summary>The index of the member <paramref name="value"/> names (a name, or an index from 0).</summary>
        public static int EnumIndex(JToken value, IReadOnlyList<string> names, string label)
        {
            if (value is JValue v && v.Type == JTokenType.String)
            {
                var index = names.ToList().IndexOf((string)v);
                if (index >= 0) return index;
            }
            if (value is JValue n && n.Type == JTokenType.Integer && (long)n >= 0 && (long)n < names.Count) return (int)(long)n;
            var suggestions = value is JValue s && s.Type == JTokenType.String ? ToolSuggestions.Closest((string)s, names) : new List<string>();
            var hint = suggestions.Count > 0 ? " (did you mean " + string.Join(", ", suggestions.Select(x => "\"" + x + "\"")) + "?)" : "";
            throw new ValueProblem(label + " is an Enum, and " + Describe(value) + " is none of its members" + hint, "Give " + Expected("Enum", names) + ".");
        }

        /// <summary>The numbers of a vector, quaternion or color of <paramref name="type"/>, as many as it has.</summary>
        public static double[] Numbers(JToken value, string type, string label)
        {
            var parts = PartsOf(type) ?? throw new ArgumentException("not a vector type: " + type, nameof(type));
            var whole = type == "Vector2Int" || type == "Vector3Int";
            if (value is JArray array && array.Count == parts.Length && array.All(item => IsNumber(item, whole)))
            {
                return array.Select(item => (double)item).ToArray();
            }
            throw Wrong(type, label, value);
        }

        /// <summary>A rect from {x, y, width, height}; the parts left out keep <paramref name="current"/>'s.</summary>
        public static double[] Rect(JToken value, double[] current, string label)
        {
            if (!(value is JObject obj) || obj.Properties().Any(p => Array.IndexOf(RectParts, p.Name) < 0)) throw Wrong("Rect", label, value);
            var rect = (double[])current.Clone();
            for (var i = 0; i < RectParts.Length; i++)
            {
                var part = obj[RectParts[i]];
                if (part == null) continue;
                if (!IsNumber(part, false)) throw Wrong("Rect", label, value);
                rect[i] = (double)part;
            }
            return rect;
        }

        /// <summary>An array's new size: a whole number from 0 to <paramref name="max"/> (more would fill the editor's memory).</summary>
        public static int ArraySize(JToken value, string label, int max)
        {
            if (value is JValue v && v.Type == JTokenType.Integer && (long)v >= 0 && (long)v <= max) return (int)(long)v;
            throw new ValueProblem(label + " is an array's size, not " + (value ?? JValue.CreateNull()).ToString(Newtonsoft.Json.Formatting.None), "Give a whole number from 0 to " + max.ToString(CultureInfo.InvariantCulture) + ".");
        }

        /// <summary>A float as JSON without float noise: 0.3f reads 0.3, not 0.30000001192092896.</summary>
        public static JToken FromFloat(float value) => new JValue(double.Parse(value.ToString("R", CultureInfo.InvariantCulture), CultureInfo.InvariantCulture));

        private static bool IsNumber(JToken token, bool whole)
        {
            if (!(token is JValue v) || (v.Type != JTokenType.Integer && v.Type != JTokenType.Float)) return false;
            var number = (double)v;
            return !double.IsNaN(number) && !double.IsInfinity(number) && (!whole || IsWhole(number));
        }

        private static bool IsWhole(double number) => Math.Floor(number) == number && Math.Abs(number) < 9007199254740992d;
    }
}
