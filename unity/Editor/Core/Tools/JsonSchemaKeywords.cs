using System;
using System.Globalization;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>JSON Schema's type names, equality, and the keywords of numbers and strings.</summary>
    internal static class JsonSchemaKeywords
    {
        public static bool IsType(JToken value, string type)
        {
            switch (type)
            {
                case "object": return value.Type == JTokenType.Object;
                case "array": return value.Type == JTokenType.Array;
                case "string": return IsString(value);
                case "boolean": return value.Type == JTokenType.Boolean;
                case "null": return value.Type == JTokenType.Null;
                case "number": return value.Type == JTokenType.Integer || value.Type == JTokenType.Float;
                // JSON has one number type: 3.0 is an integer, as Ajv (and JavaScript) see it.
                case "integer": return value.Type == JTokenType.Integer || (value.Type == JTokenType.Float && IsIntegral(ToDouble(value)));
                default: return false;
            }
        }

        /// <summary>
        /// Strings, including the values a reader that parses dates (or GUIDs, URIs) made of
        /// strings: on the wire they were strings.
        /// </summary>
        public static bool IsString(JToken value) =>
            value.Type == JTokenType.String || value.Type == JTokenType.Date || value.Type == JTokenType.Guid
            || value.Type == JTokenType.Uri || value.Type == JTokenType.TimeSpan;

        public static string StringOf(JToken value) => value.Type == JTokenType.String ? (string)value : value.ToString(Formatting.None).Trim('"');

        /// <summary>JSON equality: 1 equals 1.0, object key order does not matter.</summary>
        public static bool Same(JToken a, JToken b)
        {
            if (IsNumber(a) && IsNumber(b)) return ToDouble(a).Equals(ToDouble(b));
            if (a.Type == JTokenType.Object && b.Type == JTokenType.Object)
            {
                var left = (JObject)a;
                var right = (JObject)b;
                if (left.Count != right.Count) return false;
                foreach (var pair in left)
                {
                    if (!right.TryGetValue(pair.Key, out var other) || !Same(pair.Value, other)) return false;
                }
                return true;
            }
            if (a.Type == JTokenType.Array && b.Type == JTokenType.Array)
            {
                var left = (JArray)a;
                var right = (JArray)b;
                if (left.Count != right.Count) return false;
                for (var i = 0; i < left.Count; i++) if (!Same(left[i], right[i])) return false;
                return true;
            }
            if (IsString(a) && IsString(b)) return StringOf(a) == StringOf(b);
            return JToken.DeepEquals(a, b);
        }

        /// <summary>The number and string keywords; null when they hold (or do not apply).</summary>
        public static SchemaIssue Scalar(JsonSchemaValidator.Run run, JObject node, JToken value)
        {
            if (IsNumber(value))
            {
                var number = ToDouble(value);
                if (node.TryGetValue("minimum", out var min) && number < ToDouble(min)) return run.Issue("minimum", "must be >= " + Text(min), value);
                if (node.TryGetValue("maximum", out var max) && number > ToDouble(max)) return run.Issue("maximum", "must be <= " + Text(max), value);
                if (node.TryGetValue("exclusiveMinimum", out var xmin) && IsNumber(xmin) && number <= ToDouble(xmin)) return run.Issue("exclusiveMinimum", "must be > " + Text(xmin), value);
                if (node.TryGetValue("exclusiveMaximum", out var xmax) && IsNumber(xmax) && number >= ToDouble(xmax)) return run.Issue("exclusiveMaximum", "must be < " + Text(xmax), value);
                if (node.TryGetValue("multipleOf", out var step) && ToDouble(step) > 0 && !IsMultiple(number, ToDouble(step))) return run.Issue("multipleOf", "must be multiple of " + Text(step), value);
            }
            else if (IsString(value))
            {
                var text = StringOf(value);
                var length = CodePoints(text);
                if (node.TryGetValue("minLength", out var min) && length < (long)min) return run.Issue("minLength", "must NOT have fewer than " + min + " characters", value);
                if (node.TryGetValue("maxLength", out var max) && length > (long)max) return run.Issue("maxLength", "must NOT have more than " + max + " characters", value);
                if (node.TryGetValue("pattern", out var pattern) && JsonSchemaPatterns.TryCompile((string)pattern, out var regex) && !JsonSchemaPatterns.IsMatch(regex, text))
                {
                    return run.Issue("pattern", "must match pattern \"" + (string)pattern + "\"", value);
                }
            }
            return null;
        }

        private static bool IsNumber(JToken value) => value.Type == JTokenType.Integer || value.Type == JTokenType.Float;

        private static double ToDouble(JToken value)
        {
            var raw = ((JValue)value).Value;
            // A JSON integer beyond 64 bits is read as a BigInteger, which is not IConvertible.
            return raw is System.Numerics.BigInteger big ? (double)big : Convert.ToDouble(raw, CultureInfo.InvariantCulture);
        }

        private static bool IsIntegral(double value) => !double.IsNaN(value) && !double.IsInfinity(value) && Math.Floor(value) == value;

        private static bool IsMultiple(double value, double step)
        {
            var quotient = value / step;
            return IsIntegral(quotient) || Math.Abs(quotient - Math.Round(quotient)) < 1e-9;
        }

        private static string Text(JToken value) => value.ToString(Formatting.None);

        /// <summary>Characters as JSON Schema counts them: a surrogate pair is one.</summary>
        private static int CodePoints(string text)
        {
            var count = 0;
            for (var i = 0; i < text.Length; i++)
            {
                count++;
                if (char.IsHighSurrogate(text[i]) && i + 1 < text.Length && char.IsLowSurrogate(text[i + 1])) i++;
            }
            return count;
        }
    }
}
