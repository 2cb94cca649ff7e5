using System;
using System.Threading.Tasks;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Calls.Support
{
    /// <summary>RegisteredTools built by hand (the registry and schema validation are another helper's).</summary>
    internal static class TestTools
    {
        public static RegisteredTool Make(
            string name,
            ToolHandler handler,
            JObject annotations = null,
            JObject execution = null,
            Func<JObject, JObject> validate = null,
            Func<object, JObject> toResult = null)
        {
            var descriptor = new JObject
            {
                ["name"] = name,
                ["description"] = "test tool " + name,
                ["inputSchema"] = new JObject { ["type"] = "object" },
                ["annotations"] = annotations ?? new JObject(),
                ["execution"] = execution ?? new JObject(),
            };
            return new RegisteredTool(descriptor, validate ?? (args => args), handler, toResult ?? ToResult);
        }

        /// <summary>Arguments with a "bad" member are refused, as a schema would.</summary>
        public static JObject RefuseBad(string tool, JObject args)
        {
            if (args["bad"] != null)
            {
                throw new TetherException(ErrorCodes.InvalidArguments, "Invalid arguments for tool \"" + tool + "\": \"bad\" is not an argument of this tool.",
                    new JObject { ["tool"] = tool, ["field"] = "bad", ["problem"] = "is not an argument of this tool" });
            }
            return args;
        }

        /// <summary>A small ToolResults.From: text for a string, the result itself, or structured content.</summary>
        public static JObject ToResult(object value)
        {
            switch (value)
            {
                case null:
                    return new JObject { ["content"] = new JArray() };
                case string text:
                    return new JObject { ["content"] = new JArray(new JObject { ["type"] = "text", ["text"] = text }) };
                case JObject obj when obj["content"] is JArray:
                    return obj;
                default:
                    var json = JToken.FromObject(value);
                    var result = new JObject { ["content"] = new JArray(new JObject { ["type"] = "text", ["text"] = json.ToString(Formatting.Indented) }) };
                    if (json is JObject structured) result["structuredContent"] = structured;
                    return result;
            }
        }

        public static Task<object> Done(object value) => Task.FromResult(value);
    }
}
