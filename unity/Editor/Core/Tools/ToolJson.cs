using System.IO;
using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using Newtonsoft.Json.Linq;
using Newtonsoft.Json.Serialization;

namespace Tether.Core.Tools
{
    /// <summary>
    /// How tools' C# values become JSON and back: the one serializer behind argument classes,
    /// input and output schemas and structured results, so the names a schema advertises are
    /// the names Newtonsoft reads and writes.
    /// </summary>
    public static class ToolJson
    {
        /// <summary>Deeper than any sensible tool argument or result; bounds the work a hostile value can cause.</summary>
        public const int MaxDepth = 64;

        /// <summary>
        /// camelCase member names unless [JsonProperty] names them (dictionary keys are data and
        /// stay as they are), enums as strings ([EnumMember] values when given), nulls left out
        /// (an optional member that is null is absent, as a schema says "optional").
        /// </summary>
        public static readonly JsonSerializerSettings Settings = new JsonSerializerSettings
        {
            ContractResolver = new DefaultContractResolver
            {
                NamingStrategy = new CamelCaseNamingStrategy { ProcessDictionaryKeys = false, OverrideSpecifiedNames = false },
            },
            Converters = { new StringEnumConverter() },
            NullValueHandling = NullValueHandling.Ignore,
            ReferenceLoopHandling = ReferenceLoopHandling.Error,
            DateParseHandling = DateParseHandling.None,
            MaxDepth = MaxDepth,
        };

        public static readonly JsonSerializer Serializer = JsonSerializer.Create(Settings);

        /// <summary>The value as JSON, the way tool results and schema defaults are written (null for null).</summary>
        public static JToken FromObject(object value) => value == null ? JValue.CreateNull() : value as JToken ?? JToken.FromObject(value, Serializer);

        /// <summary>JSON.stringify(value, null, 2): two-space indent and "\n" line ends on every OS.</summary>
        public static string Pretty(JToken value)
        {
            using (var text = new StringWriter { NewLine = "\n" })
            {
                using (var writer = new JsonTextWriter(text) { Formatting = Formatting.Indented, Indentation = 2 })
                {
                    (value ?? JValue.CreateNull()).WriteTo(writer);
                }
                return text.ToString();
            }
        }

        /// <summary>JSON.stringify(value): no whitespace.</summary>
        public static string Compact(JToken value) => (value ?? JValue.CreateNull()).ToString(Formatting.None);
    }
}
