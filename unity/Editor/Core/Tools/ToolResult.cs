using System.Collections.Generic;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>
    /// A whole MCP tool result, for a tool that wants more than one text or one object: several
    /// content items, images, embedded resources, or isError (the tool ran and reports a
    /// failure as its result; the call still completes). Return it from a [TetherTool] method.
    /// </summary>
    public sealed class ToolResult
    {
        /// <summary>Content items ({ "type": "text", "text": … }, …); ToolContent builds them.</summary>
        public List<JObject> Content { get; set; } = new List<JObject>();

        /// <summary>The result as JSON (an object): what the tool's outputSchema describes. Serialized as ToolJson does.</summary>
        public object StructuredContent { get; set; }

        /// <summary>The tool ran and reports a failure as its result.</summary>
        public bool IsError { get; set; }

        public static ToolResult Text(string text) => new ToolResult().Add(ToolContent.Text(text));

        /// <summary>A failure reported as a result (isError: true) with a text saying what went wrong.</summary>
        public static ToolResult Error(string message) => new ToolResult { IsError = true }.Add(ToolContent.Text(message));

        /// <summary>structuredContent with its pretty JSON as the text, as a returned object becomes.</summary>
        public static ToolResult Structured(object value)
        {
            var json = ToolJson.FromObject(value);
            return new ToolResult { StructuredContent = json }.Add(ToolContent.Text(ToolJson.Pretty(json)));
        }

        public ToolResult Add(JObject content)
        {
            (Content ?? (Content = new List<JObject>())).Add(content);
            return this;
        }
    }

    /// <summary>MCP content items, as JObjects (further fields are allowed and passed through).</summary>
    public static class ToolContent
    {
        public static JObject Text(string text) => new JObject { ["type"] = "text", ["text"] = text ?? "" };

        public static JObject Image(string base64, string mimeType) => new JObject { ["type"] = "image", ["data"] = base64, ["mimeType"] = mimeType };

        public static JObject Audio(string base64, string mimeType) => new JObject { ["type"] = "audio", ["data"] = base64, ["mimeType"] = mimeType };

        /// <summary>An embedded text resource.</summary>
        public static JObject Resource(string uri, string mimeType, string text)
        {
            var resource = new JObject { ["uri"] = uri };
            if (mimeType != null) resource["mimeType"] = mimeType;
            resource["text"] = text ?? "";
            return new JObject { ["type"] = "resource", ["resource"] = resource };
        }

        /// <summary>An embedded binary resource (blob is base64).</summary>
        public static JObject BlobResource(string uri, string mimeType, string base64)
        {
            var resource = new JObject { ["uri"] = uri };
            if (mimeType != null) resource["mimeType"] = mimeType;
            resource["blob"] = base64 ?? "";
            return new JObject { ["type"] = "resource", ["resource"] = resource };
        }

        public static JObject ResourceLink(string uri, string name, string mimeType = null)
        {
            var link = new JObject { ["type"] = "resource_link", ["uri"] = uri, ["name"] = name };
            if (mimeType != null) link["mimeType"] = mimeType;
            return link;
        }
    }
}
