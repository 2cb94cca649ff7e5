using Newtonsoft.Json.Linq;

namespace Tether.Core.Kit
{
    /// <summary>The JSON Schemas the conformance fixtures advertise or send, verbatim from the sandbox.</summary>
    internal static class ConformanceFixtureSchemas
    {
        /// <summary>SEP-1613: an input schema that uses JSON Schema 2020-12 keywords, advertised as it is.</summary>
        public static JObject JsonSchema202012() => JObject.Parse(@"{
            ""$schema"": ""https://json-schema.org/draft/2020-12/schema"",
            ""type"": ""object"",
            ""$defs"": {
                ""address"": { ""type"": ""object"", ""properties"": { ""street"": { ""type"": ""string"" }, ""city"": { ""type"": ""string"" } } }
            },
            ""properties"": { ""name"": { ""type"": ""string"" }, ""address"": { ""$ref"": ""#/$defs/address"" } },
            ""additionalProperties"": false
        }");

        /// <summary>SEP-1034: form fields with default values.</summary>
        public static JObject Defaults() => JObject.Parse(@"{
            ""type"": ""object"",
            ""properties"": {
                ""name"": { ""type"": ""string"", ""description"": ""User name"", ""default"": ""John Doe"" },
                ""age"": { ""type"": ""integer"", ""description"": ""User age"", ""default"": 30 },
                ""score"": { ""type"": ""number"", ""description"": ""User score"", ""default"": 95.5 },
                ""status"": { ""type"": ""string"", ""description"": ""User status"", ""enum"": [""active"", ""inactive"", ""pending""], ""default"": ""active"" },
                ""verified"": { ""type"": ""boolean"", ""description"": ""Verification status"", ""default"": true }
            },
            ""required"": []
        }");

        /// <summary>SEP-1330: the five enum field forms.</summary>
        public static JObject Enums() => JObject.Parse(@"{
            ""type"": ""object"",
            ""properties"": {
                ""untitledSingle"": { ""type"": ""string"", ""description"": ""Select one option"", ""enum"": [""option1"", ""option2"", ""option3""] },
                ""titledSingle"": {
                    ""type"": ""string"",
                    ""description"": ""Select one option with titles"",
                    ""oneOf"": [
                        { ""const"": ""value1"", ""title"": ""First Option"" },
                        { ""const"": ""value2"", ""title"": ""Second Option"" },
                        { ""const"": ""value3"", ""title"": ""Third Option"" }
                    ]
                },
                ""legacyEnum"": {
                    ""type"": ""string"",
                    ""description"": ""Select one option (legacy)"",
                    ""enum"": [""opt1"", ""opt2"", ""opt3""],
                    ""enumNames"": [""Option One"", ""Option Two"", ""Option Three""]
                },
                ""untitledMulti"": {
                    ""type"": ""array"",
                    ""description"": ""Select multiple options"",
                    ""minItems"": 1,
                    ""maxItems"": 3,
                    ""items"": { ""type"": ""string"", ""enum"": [""option1"", ""option2"", ""option3""] }
                },
                ""titledMulti"": {
                    ""type"": ""array"",
                    ""description"": ""Select multiple options with titles"",
                    ""minItems"": 1,
                    ""maxItems"": 3,
                    ""items"": {
                        ""anyOf"": [
                            { ""const"": ""value1"", ""title"": ""First Choice"" },
                            { ""const"": ""value2"", ""title"": ""Second Choice"" },
                            { ""const"": ""value3"", ""title"": ""Third Choice"" }
                        ]
                    }
                }
            },
            ""required"": []
        }");
    }
}
