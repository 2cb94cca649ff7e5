using System.Collections.Generic;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// Reads a request's params field by field and collects every problem, then throws one
    /// INVALID_PARAMS naming the first (data: method, field, issues [{path, message}]), as the
    /// reference's parseParams does with its schemas. A field under a parent that is missing or
    /// not an object is not looked at: the parent's own problem is the one reported.
    /// Paths are dotted ("client.name"); "" is the params object itself.
    /// </summary>
    public sealed class ParamsReader
    {
        private readonly string _method;
        private readonly JObject _root;
        private readonly List<KeyValuePair<string, string>> _issues = new List<KeyValuePair<string, string>>();

        /// <param name="parameters">The params as received: null (omitted) is {}.</param>
        public ParamsReader(string method, JToken parameters)
        {
            _method = method;
            if (parameters == null || parameters.Type == JTokenType.Undefined) _root = new JObject();
            else if (parameters is JObject root) _root = root;
            else Issue("", Expected("object", parameters));
        }

        public bool IsValid => _issues.Count == 0;

        /// <summary>True when the field is present (JSON null counts as present).</summary>
        public bool Has(string path) => TryGet(path, out var value) && value != null;

        public void Issue(string path, string message) => _issues.Add(new KeyValuePair<string, string>(path, message));

        public JObject Object(string path, bool required)
        {
            if (!Read(path, required, "object", out var value)) return null;
            if (value is JObject result) return result;
            Issue(path, Expected("object", value));
            return null;
        }

        public string String(string path, bool required, int minLength = 0, int maxLength = int.MaxValue)
        {
            if (!Read(path, required, "string", out var value)) return null;
            if (value.Type != JTokenType.String)
            {
                Issue(path, Expected("string", value));
                return null;
            }
            var text = (string)value;
            if (text.Length < minLength) Issue(path, $"Too small: expected string to have >={minLength} characters");
            else if (text.Length > maxLength) Issue(path, $"Too big: expected string to have <={maxLength} characters");
            return text;
        }

        public bool? Boolean(string path, bool required)
        {
            if (!Read(path, required, "boolean", out var value)) return null;
            if (value.Type == JTokenType.Boolean) return (bool)value;
            Issue(path, Expected("boolean", value));
            return null;
        }

        /// <summary>An integer (1.0 counts, as it does in JavaScript), at least <paramref name="min"/> when given.</summary>
        public long? Integer(string path, bool required, long? min = null, string belowMinMessage = null)
        {
            if (!Read(path, required, "number", out var value)) return null;
            long number;
            if (value.Type == JTokenType.Integer && value is JValue v && v.Value is long whole)
            {
                number = whole;
            }
            else if (value.Type == JTokenType.Float && IsWhole(value.Value<double>()))
            {
                number = (long)value.Value<double>();
            }
            else
            {
                Issue(path, value.Type == JTokenType.Integer || value.Type == JTokenType.Float ? "Invalid input: expected int, received number" : Expected("number", value));
                return null;
            }
            if (min.HasValue && number < min.Value)
            {
                Issue(path, belowMinMessage ?? (min.Value == 1 ? "Too small: expected number to be >0" : $"Too small: expected number to be >={min.Value}"));
                return null;
            }
            return number;
        }

        /// <summary>An object of any values, or (<paramref name="stringValues"/>) of strings only.</summary>
        public JObject Record(string path, bool required, bool stringValues)
        {
            if (!Read(path, required, "record", out var value)) return null;
            if (!(value is JObject record))
            {
                Issue(path, Expected("record", value));
                return null;
            }
            if (stringValues)
            {
                foreach (var pair in record)
                {
                    if (pair.Value.Type != JTokenType.String) Issue(Join(path, pair.Key), Expected("string", pair.Value));
                }
            }
            return record;
        }

        /// <summary>Throws INVALID_PARAMS when anything was wrong.</summary>
        public void ThrowIfInvalid()
        {
            if (_issues.Count == 0) return;
            var first = _issues[0];
            var field = first.Key.Length > 0 ? first.Key : "(params)";
            var issues = new JArray();
            foreach (var issue in _issues) issues.Add(new JObject { ["path"] = issue.Key, ["message"] = issue.Value });
            throw new TetherException(
                ErrorCodes.InvalidParams,
                $"Invalid params for \"{_method}\": {field}: {first.Value}.",
                new JObject { ["method"] = _method, ["field"] = field, ["issues"] = issues });
        }

        private static bool IsWhole(double number) => !double.IsInfinity(number) && System.Math.Floor(number) == number && System.Math.Abs(number) < 9.2e18;

        private static string Join(string path, string key) => path.Length == 0 ? key : path + "." + key;

        /// <summary>The field's value; false (nothing to check) when it is absent and optional, or its parent is not there.</summary>
        private bool Read(string path, bool required, string typeName, out JToken value)
        {
            if (!TryGet(path, out value)) return false;
            if (value != null && value.Type != JTokenType.Undefined) return true;
            if (required) Issue(path, $"Invalid input: expected {typeName}, received undefined");
            return false;
        }

        /// <summary>Finds the field; false when the params or a parent object is missing or not an object.</summary>
        private bool TryGet(string path, out JToken value)
        {
            value = null;
            if (_root == null) return false;
            JObject current = _root;
            var parts = path.Split('.');
            for (int i = 0; i < parts.Length - 1; i++)
            {
                current = current[parts[i]] as JObject;
                if (current == null) return false;
            }
            value = current[parts[parts.Length - 1]];
            return true;
        }

        private static string Expected(string type, JToken value) => $"Invalid input: expected {type}, received {TypeName(value)}";

        private static string TypeName(JToken value)
        {
            if (value == null) return "undefined";
            switch (value.Type)
            {
                case JTokenType.Null: return "null";
                case JTokenType.Array: return "array";
                case JTokenType.Object: return "object";
                case JTokenType.String: return "string";
                case JTokenType.Integer:
                case JTokenType.Float: return "number";
                case JTokenType.Boolean: return "boolean";
                default: return value.Type.ToString().ToLowerInvariant();
            }
        }
    }
}
