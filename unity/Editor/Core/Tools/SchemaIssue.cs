using System.Collections.Generic;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>The first thing a value gets wrong against a JSON Schema: where, which keyword, and what it means.</summary>
    internal sealed class SchemaIssue
    {
        /// <summary>The keys leading to the offending value (array indices as decimal strings).</summary>
        public IReadOnlyList<string> Path;

        /// <summary>The keyword that failed: "type", "required", "additionalProperties", "enum", "minimum", …</summary>
        public string Keyword;

        /// <summary>Ajv's wording, without the path: "must be integer", "must NOT have fewer than 1 characters".</summary>
        public string Message;

        /// <summary>For "required": the missing property; for "additionalProperties": the one not allowed.</summary>
        public string Property;

        /// <summary>For "additionalProperties": the properties the object's schema names.</summary>
        public IReadOnlyList<string> Known;

        /// <summary>For "enum" (and an anyOf/oneOf of constants): the values allowed.</summary>
        public JArray Allowed;

        /// <summary>The offending value (null when missing).</summary>
        public JToken Value;

        public string DottedPath => string.Join(".", Path);
    }
}
