using System.Collections.Generic;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Whether a JSON Schema can be used at all (what Ajv's compile refuses): schemas that are
    /// objects or booleans, known type names, patterns that compile, $refs that resolve inside
    /// the document, numbers where numbers belong. Keywords it does not know are ignored, as
    /// Ajv does with strict mode off.
    /// </summary>
    internal static class JsonSchemaCheck
    {
        public const int MaxDepth = 96;

        private static readonly HashSet<string> TypeNames = new HashSet<string> { "string", "number", "integer", "boolean", "object", "array", "null" };
        private static readonly string[] SchemaMaps = { "properties", "patternProperties", "$defs", "definitions", "dependentSchemas" };
        private static readonly string[] SchemaLists = { "allOf", "anyOf", "oneOf", "prefixItems" };
        private static readonly string[] SingleSchemas = { "additionalProperties", "items", "not", "if", "then", "else", "propertyNames", "contains", "unevaluatedProperties", "unevaluatedItems" };
        private static readonly string[] Numbers = { "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf" };
        private static readonly string[] Counts = { "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties" };

        /// <summary>What makes the schema unusable, or null when it is fine.</summary>
        public static string Problem(JToken root) => Problem(root, root, "#", 0);

        private static string Problem(JToken root, JToken schema, string at, int depth)
        {
            if (schema is JValue boolean && boolean.Type == JTokenType.Boolean) return null;
            if (!(schema is JObject node)) return at + " is not a schema (an object or a boolean)";
            if (depth > MaxDepth) return "it is nested more than " + MaxDepth + " levels deep";

            if (node.TryGetValue("type", out var type))
            {
                var names = type.Type == JTokenType.Array ? (IEnumerable<JToken>)type : new[] { type };
                foreach (var name in names)
                {
                    if (name.Type != JTokenType.String || !TypeNames.Contains((string)name)) return at + "/type has an unknown type " + name.ToString(Newtonsoft.Json.Formatting.None);
                }
            }
            if (node.TryGetValue("pattern", out var pattern) && (pattern.Type != JTokenType.String || !JsonSchemaPatterns.TryCompile((string)pattern, out _)))
            {
                return at + "/pattern is not a valid regular expression";
            }
            if (node.TryGetValue("$ref", out var reference))
            {
                if (reference.Type != JTokenType.String) return at + "/$ref is not a string";
                if (JsonSchemaRefs.Resolve(root, (string)reference) == null) return at + "/$ref \"" + (string)reference + "\" does not resolve inside the schema (only local references, \"#/…\", are read)";
            }
            if (node.TryGetValue("required", out var required) && (required.Type != JTokenType.Array || !All(required, JTokenType.String))) return at + "/required is not an array of strings";
            if (node.TryGetValue("enum", out var values) && values.Type != JTokenType.Array) return at + "/enum is not an array";
            foreach (var key in Numbers)
            {
                if (node.TryGetValue(key, out var number) && number.Type != JTokenType.Integer && number.Type != JTokenType.Float) return at + "/" + key + " is not a number";
            }
            foreach (var key in Counts)
            {
                if (node.TryGetValue(key, out var count) && (count.Type != JTokenType.Integer || (long)count < 0)) return at + "/" + key + " is not a non-negative integer";
            }

            foreach (var key in SchemaMaps)
            {
                if (!node.TryGetValue(key, out var map)) continue;
                if (!(map is JObject members)) return at + "/" + key + " is not an object";
                foreach (var member in members)
                {
                    if (key == "patternProperties" && !JsonSchemaPatterns.TryCompile(member.Key, out _)) return at + "/patternProperties has an invalid pattern " + member.Key;
                    var problem = Problem(root, member.Value, at + "/" + key + "/" + member.Key, depth + 1);
                    if (problem != null) return problem;
                }
            }
            foreach (var key in SchemaLists)
            {
                if (!node.TryGetValue(key, out var list)) continue;
                if (!(list is JArray schemas) || (key != "prefixItems" && schemas.Count == 0)) return at + "/" + key + " is not a non-empty array of schemas";
                for (var i = 0; i < schemas.Count; i++)
                {
                    var problem = Problem(root, schemas[i], at + "/" + key + "/" + i, depth + 1);
                    if (problem != null) return problem;
                }
            }
            foreach (var key in SingleSchemas)
            {
                if (!node.TryGetValue(key, out var single)) continue;
                // Draft 7's tuple form of "items", still met in hand-written schemas.
                if (key == "items" && single is JArray tuple)
                {
                    for (var i = 0; i < tuple.Count; i++)
                    {
                        var tupleProblem = Problem(root, tuple[i], at + "/items/" + i, depth + 1);
                        if (tupleProblem != null) return tupleProblem;
                    }
                    continue;
                }
                var problem = Problem(root, single, at + "/" + key, depth + 1);
                if (problem != null) return problem;
            }
            return null;
        }

        private static bool All(JToken array, JTokenType type)
        {
            foreach (var item in array) if (item.Type != type) return false;
            return true;
        }
    }

    /// <summary>Local $refs: "#", "#/$defs/name", any JSON Pointer into the schema document.</summary>
    internal static class JsonSchemaRefs
    {
        public static JToken Resolve(JToken root, string reference)
        {
            if (reference == null || !reference.StartsWith("#", System.StringComparison.Ordinal)) return null;
            var pointer = System.Uri.UnescapeDataString(reference.Substring(1));
            if (pointer.Length == 0) return root;
            if (pointer[0] != '/') return null;
            JToken current = root;
            foreach (var raw in pointer.Substring(1).Split('/'))
            {
                var key = raw.Replace("~1", "/").Replace("~0", "~");
                if (current is JObject node) current = node[key];
                else if (current is JArray list && int.TryParse(key, out var index) && index >= 0 && index < list.Count) current = list[index];
                else return null;
                if (current == null) return null;
            }
            return current;
        }
    }
}
