using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Checks JSON values against a JSON Schema (2020-12): the subset tools use (type, enum,
    /// const, numbers, strings, arrays, objects, $ref, allOf/anyOf/oneOf/not, if/then/else),
    /// reporting the first issue as Ajv would word it. It may fill in "default"s of missing
    /// properties, as zod does for the TypeScript host's tools. Formats are not checked (Ajv's
    /// validateFormats is off there too). Immutable; safe to use from any thread.
    /// </summary>
    internal sealed class JsonSchemaValidator
    {
        private readonly JToken _root;

        /// <summary>Throws ToolDefinitionException when the schema cannot be used.</summary>
        public JsonSchemaValidator(JToken schema)
        {
            _root = schema ?? throw new ArgumentNullException(nameof(schema));
            var problem = JsonSchemaCheck.Problem(schema);
            if (problem != null) throw new ToolDefinitionException(problem);
        }

        /// <summary>
        /// The first issue with <paramref name="instance"/>, or null when it conforms. With
        /// <paramref name="applyDefaults"/>, missing properties that have a "default" are added
        /// to it in place (the caller passes a copy).
        /// </summary>
        public SchemaIssue Validate(JToken instance, bool applyDefaults) =>
            new Run(_root, applyDefaults).Eval(_root, instance ?? JValue.CreateNull(), 0);

        internal sealed class Run
        {
            private readonly JToken _root;
            private readonly bool _defaults;
            private readonly List<string> _path = new List<string>();

            public Run(JToken root, bool defaults)
            {
                _root = root;
                _defaults = defaults;
            }

            public SchemaIssue Eval(JToken schema, JToken value, int depth)
            {
                if (schema is JValue boolean && boolean.Type == JTokenType.Boolean)
                {
                    return (bool)boolean ? null : Issue("false schema", "boolean schema is false", value);
                }
                var node = (JObject)schema;
                if (depth > JsonSchemaCheck.MaxDepth) return Issue("depth", "is nested too deeply to check (more than " + JsonSchemaCheck.MaxDepth + " levels)", value);
                return Reference(node, value, depth)
                    ?? TypeOf(node, value)
                    ?? Constants(node, value)
                    ?? JsonSchemaKeywords.Scalar(this, node, value)
                    ?? Array(node, value, depth)
                    ?? JsonSchemaObjects.Check(this, node, value, depth)
                    ?? Combined(node, value, depth);
            }

            public bool Defaults => _defaults;

            /// <summary>Evaluates a subschema for a member of <paramref name="value"/> reached by <paramref name="key"/>.</summary>
            public SchemaIssue Child(JToken schema, JToken value, string key, int depth)
            {
                _path.Add(key);
                try
                {
                    return Eval(schema, value, depth + 1);
                }
                finally
                {
                    _path.RemoveAt(_path.Count - 1);
                }
            }

            /// <summary>Whether <paramref name="value"/> conforms, without touching it or reporting anything.</summary>
            public bool Passes(JToken schema, JToken value, int depth) => new Run(_root, false).Eval(schema, value, depth) == null;

            public SchemaIssue Issue(string keyword, string message, JToken value) =>
                new SchemaIssue { Path = _path.ToArray(), Keyword = keyword, Message = message, Value = value };

            private SchemaIssue Reference(JObject node, JToken value, int depth)
            {
                if (!node.TryGetValue("$ref", out var reference)) return null;
                var target = JsonSchemaRefs.Resolve(_root, (string)reference);
                return Eval(target, value, depth + 1);
            }

            private SchemaIssue TypeOf(JObject node, JToken value)
            {
                if (!node.TryGetValue("type", out var type)) return null;
                var names = type.Type == JTokenType.Array ? type.Select(t => (string)t).ToList() : new List<string> { (string)type };
                return names.Any(name => JsonSchemaKeywords.IsType(value, name)) ? null : Issue("type", "must be " + string.Join(",", names), value);
            }

            private SchemaIssue Constants(JObject node, JToken value)
            {
                if (node.TryGetValue("const", out var constant) && !JsonSchemaKeywords.Same(constant, value))
                {
                    return WithAllowed(Issue("const", "must be equal to constant " + constant.ToString(Formatting.None), value), new JArray(constant.DeepClone()));
                }
                if (node.TryGetValue("enum", out var allowed) && !allowed.Any(option => JsonSchemaKeywords.Same(option, value)))
                {
                    return WithAllowed(Issue("enum", "must be equal to one of the allowed values", value), (JArray)allowed.DeepClone());
                }
                return null;
            }

            private static SchemaIssue WithAllowed(SchemaIssue issue, JArray allowed)
            {
                issue.Allowed = allowed;
                return issue;
            }

            private SchemaIssue Array(JObject node, JToken value, int depth)
            {
                if (!(value is JArray items)) return null;
                if (node.TryGetValue("minItems", out var min) && items.Count < (long)min) return Issue("minItems", "must NOT have fewer than " + min + " items", value);
                if (node.TryGetValue("maxItems", out var max) && items.Count > (long)max) return Issue("maxItems", "must NOT have more than " + max + " items", value);
                if (node.TryGetValue("uniqueItems", out var unique) && unique.Type == JTokenType.Boolean && (bool)unique)
                {
                    for (var i = 1; i < items.Count; i++)
                    {
                        for (var j = 0; j < i; j++)
                        {
                            if (JsonSchemaKeywords.Same(items[i], items[j])) return Issue("uniqueItems", "must NOT have duplicate items (items ## " + j + " and " + i + " are identical)", value);
                        }
                    }
                }
                var prefix = node["prefixItems"] as JArray ?? node["items"] as JArray;
                var rest = node["items"] is JArray ? node["additionalItems"] : node["items"];
                for (var i = 0; i < items.Count; i++)
                {
                    var itemSchema = prefix != null && i < prefix.Count ? prefix[i] : rest;
                    if (itemSchema == null) continue;
                    var issue = Child(itemSchema, items[i], i.ToString(System.Globalization.CultureInfo.InvariantCulture), depth);
                    if (issue != null) return issue;
                }
                return null;
            }

            private SchemaIssue Combined(JObject node, JToken value, int depth)
            {
                if (node["allOf"] is JArray all)
                {
                    foreach (var branch in all)
                    {
                        var issue = Eval(branch, value, depth + 1);
                        if (issue != null) return issue;
                    }
                }
                if (node["anyOf"] is JArray any)
                {
                    var match = any.FirstOrDefault(branch => Passes(branch, value, depth + 1));
                    if (match == null) return Alternatives(any, value, "anyOf", "must match a schema in anyOf");
                    var issue = Eval(match, value, depth + 1); // again, for real: fills in the defaults of the branch that matched
                    if (issue != null) return issue;
                }
                if (node["oneOf"] is JArray one)
                {
                    var matches = one.Where(branch => Passes(branch, value, depth + 1)).ToList();
                    if (matches.Count == 0) return Alternatives(one, value, "oneOf", "must match exactly one schema in oneOf");
                    if (matches.Count > 1) return Issue("oneOf", "must match exactly one schema in oneOf (it matches " + matches.Count + ")", value);
                    var issue = Eval(matches[0], value, depth + 1);
                    if (issue != null) return issue;
                }
                if (node.TryGetValue("not", out var not) && Passes(not, value, depth + 1)) return Issue("not", "must NOT be valid", value);
                if (node.TryGetValue("if", out var condition))
                {
                    var branch = Passes(condition, value, depth + 1) ? node["then"] : node["else"];
                    if (branch != null) return Eval(branch, value, depth + 1);
                }
                return null;
            }

            /// <summary>No alternative matched. Alternatives that are all constants read as an enum ("must be one of …").</summary>
            private SchemaIssue Alternatives(JArray branches, JToken value, string keyword, string message)
            {
                var constants = branches.OfType<JObject>().Where(b => b["const"] != null).Select(b => b["const"].DeepClone()).ToList();
                if (constants.Count == branches.Count) return WithAllowed(Issue("enum", "must be equal to one of the allowed values", value), new JArray(constants));
                return Issue(keyword, message, value);
            }
        }
    }
}
