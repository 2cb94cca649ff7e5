using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>The object keywords: defaults, unknown keys, required, properties, patternProperties, additionalProperties, counts.</summary>
    internal static class JsonSchemaObjects
    {
        public static SchemaIssue Check(JsonSchemaValidator.Run run, JObject node, JToken value, int depth)
        {
            if (!(value is JObject instance)) return null;
            var properties = node["properties"] as JObject;
            var patterns = node["patternProperties"] as JObject;
            var additional = node["additionalProperties"];

            if (run.Defaults && properties != null)
            {
                foreach (var property in properties)
                {
                    if (!instance.ContainsKey(property.Key) && property.Value is JObject described && described.TryGetValue("default", out var fallback))
                    {
                        instance[property.Key] = fallback.DeepClone();
                    }
                }
            }

            // Unknown keys first: a misspelled required argument is both missing and unknown, and
            // the unknown key (with its "did you mean") says more.
            var extras = instance.Properties()
                .Select(p => p.Name)
                .Where(key => properties?.ContainsKey(key) != true && !MatchesAnyPattern(patterns, key))
                .ToList();
            if (additional is JValue closed && closed.Type == JTokenType.Boolean && !(bool)closed && extras.Count > 0)
            {
                var issue = run.Issue("additionalProperties", "must NOT have additional properties", value);
                issue.Property = extras[0];
                issue.Known = properties?.Properties().Select(p => p.Name).ToList() ?? new List<string>();
                return issue;
            }

            if (node["required"] is JArray required)
            {
                foreach (var name in required.Select(r => (string)r))
                {
                    if (instance.ContainsKey(name)) continue;
                    var issue = run.Issue("required", "must have required property '" + name + "'", value);
                    issue.Property = name;
                    return issue;
                }
            }

            if (properties != null)
            {
                foreach (var property in properties)
                {
                    if (!instance.TryGetValue(property.Key, out var member)) continue;
                    var issue = run.Child(property.Value, member, property.Key, depth);
                    if (issue != null) return issue;
                }
            }

            if (patterns != null)
            {
                foreach (var member in instance.Properties().ToList())
                {
                    foreach (var pattern in patterns)
                    {
                        if (!JsonSchemaPatterns.TryCompile(pattern.Key, out var regex) || !JsonSchemaPatterns.IsMatch(regex, member.Name)) continue;
                        var issue = run.Child(pattern.Value, member.Value, member.Name, depth);
                        if (issue != null) return issue;
                    }
                }
            }

            if (additional is JObject extraSchema)
            {
                foreach (var key in extras)
                {
                    var issue = run.Child(extraSchema, instance[key], key, depth);
                    if (issue != null) return issue;
                }
            }

            if (node["propertyNames"] is JToken names)
            {
                foreach (var key in instance.Properties().Select(p => p.Name).ToList())
                {
                    var issue = run.Child(names, new JValue(key), key, depth);
                    if (issue != null) return issue;
                }
            }

            if (node.TryGetValue("minProperties", out var min) && instance.Count < (long)min) return run.Issue("minProperties", "must NOT have fewer than " + min + " properties", value);
            if (node.TryGetValue("maxProperties", out var max) && instance.Count > (long)max) return run.Issue("maxProperties", "must NOT have more than " + max + " properties", value);
            return null;
        }

        private static bool MatchesAnyPattern(JObject patterns, string key)
        {
            if (patterns == null) return false;
            foreach (var pattern in patterns)
            {
                if (JsonSchemaPatterns.TryCompile(pattern.Key, out var regex) && JsonSchemaPatterns.IsMatch(regex, key)) return true;
            }
            return false;
        }
    }
}
