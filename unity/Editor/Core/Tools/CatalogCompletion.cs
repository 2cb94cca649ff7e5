using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>completion/complete over a catalog's prompts and templates (protocol.md §7.13).</summary>
    internal static class CatalogCompletion
    {
        private const string Method = "completion/complete";

        public static JObject Complete(JObject parameters, EntrySet<PromptEntry> prompts, EntrySet<TemplateEntry> templates, int max, int maxCounted)
        {
            var reference = parameters?["ref"] as JObject ?? throw Invalid("ref", "ref must be an object");
            var argument = parameters["argument"] as JObject ?? throw Invalid("argument", "argument must be an object");
            var name = StringAt(argument, "name", "argument.name");
            var value = StringAt(argument, "value", "argument.value");
            IEnumerable<string> values;
            switch ((string)reference["type"])
            {
                case "ref/prompt":
                {
                    var promptName = StringAt(reference, "name", "ref.name");
                    var prompt = prompts.Find(promptName);
                    if (prompt == null)
                    {
                        var shown = ToolSuggestions.Clip(promptName);
                        throw new TetherException(ErrorCodes.NotFound, "No prompt named \"" + shown + "\". prompts/list shows every prompt.", new JObject { ["prompt"] = shown });
                    }
                    var context = parameters["context"]?["arguments"] as JObject ?? new JObject();
                    values = prompt.Complete?.Invoke(name, value, (JObject)context.DeepClone());
                    break;
                }
                case "ref/resource":
                {
                    var uri = StringAt(reference, "uri", "ref.uri");
                    var template = templates.Find(uri);
                    if (template == null)
                    {
                        var shown = ToolSuggestions.Clip(uri);
                        throw new TetherException(ErrorCodes.NotFound, "No resource template \"" + shown + "\". resources/templates/list shows every template.", new JObject { ["uri"] = shown });
                    }
                    values = template.Complete?.Invoke(name, value);
                    break;
                }
                default:
                    throw Invalid("ref.type", "ref.type must be \"ref/prompt\" or \"ref/resource\"");
            }
            var shownValues = new JArray();
            var total = 0;
            foreach (var candidate in values ?? Enumerable.Empty<string>())
            {
                if (candidate == null) continue;
                if (total < max) shownValues.Add(candidate);
                if (++total >= maxCounted) break;
            }
            return new JObject
            {
                ["completion"] = new JObject { ["values"] = shownValues, ["total"] = total, ["hasMore"] = total > max },
            };
        }

        private static string StringAt(JObject holder, string key, string field)
        {
            var token = holder[key];
            if (token?.Type != JTokenType.String) throw Invalid(field, field + " must be a string");
            return (string)token;
        }

        /// <summary>INVALID_PARAMS in the shape every request's params errors have (protocol.md §7.0).</summary>
        private static TetherException Invalid(string field, string message) =>
            new TetherException(
                ErrorCodes.InvalidParams,
                "Invalid params for " + Method + ": " + message + ".",
                new JObject
                {
                    ["method"] = Method,
                    ["field"] = field,
                    ["issues"] = new JArray(new JObject { ["path"] = field, ["message"] = message }),
                });
    }
}
