using System;
using System.Globalization;
using System.IO;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// What a host advertises in $TETHER_HOME/hosts/&lt;instanceId&gt;.json (protocol.md §12): how
    /// a client finds it (port, project) and authenticates (token, auth). The JSON has the
    /// TypeScript record's field names, in its order.
    /// </summary>
    public sealed class HostRecord
    {
        /// <summary>The record's `auth` value of a host that takes proofs (host-proof.ts PROOF_AUTH).</summary>
        public const string ProofAuth = "proof";

        /// <summary>Stable for the editor process, across domain reloads; also the file name.</summary>
        public string InstanceId { get; set; }

        /// <summary>The editor's process id: a client deletes the record once it is gone.</summary>
        public int Pid { get; set; }

        /// <summary>The port the host listens on now.</summary>
        public int Port { get; set; }

        public string Host { get; set; } = "127.0.0.1";

        /// <summary>The secret for tether/hello. Never log it.</summary>
        public string Token { get; set; }

        /// <summary>Absolute path of the open project.</summary>
        public string ProjectPath { get; set; }

        /// <summary>"unity", "sandbox", "console", …</summary>
        public string Kind { get; set; }

        /// <summary>Human-readable name; omitted from the JSON when null.</summary>
        public string Name { get; set; }

        public int ProtocolVersion { get; set; } = 1;

        /// <summary>ISO 8601, UTC, milliseconds ("2025-11-23T05:11:00.000Z"): when this listener started. See FormatTime.</summary>
        public string StartedAt { get; set; }

        /// <summary>"proof" (ProofAuth) when clients must prove the token rather than send it; null (omitted) otherwise.</summary>
        public string Auth { get; set; }

        /// <summary>
        /// When the host closed its listener for a domain reload (FormatTime); null (omitted) in a
        /// listening domain's record. A client refused by a marked record's port waits for the
        /// editor to come back; by an unmarked one's, it does not: that editor crashed, and its pid
        /// may be another process's now (protocol.md §12).
        /// </summary>
        public string ReloadingSince { get; set; }

        /// <summary>The record's JSON, fields in the TypeScript order; Name, Auth and ReloadingSince only when set.</summary>
        public JObject ToJson()
        {
            var json = new JObject
            {
                ["instanceId"] = InstanceId,
                ["pid"] = Pid,
                ["port"] = Port,
                ["host"] = Host ?? "127.0.0.1",
                ["token"] = Token,
                ["projectPath"] = ProjectPath,
                ["kind"] = Kind,
            };
            if (Name != null) json["name"] = Name;
            json["protocolVersion"] = ProtocolVersion;
            json["startedAt"] = StartedAt;
            if (Auth != null) json["auth"] = Auth;
            if (ReloadingSince != null) json["reloadingSince"] = ReloadingSince;
            return json;
        }

        /// <summary>The file's text: JSON indented by two spaces, '\n' line ends, a final newline (as JSON.stringify(record, null, 2) + "\n").</summary>
        public string ToFileText()
        {
            var text = new StringWriter(CultureInfo.InvariantCulture) { NewLine = "\n" };
            using (var writer = new JsonTextWriter(text) { Formatting = Formatting.Indented, Indentation = 2 })
            {
                ToJson().WriteTo(writer);
            }
            return text + "\n";
        }

        /// <summary>
        /// Reads a record as the TypeScript HostRecord schema does: required fields must be there
        /// with their types (host defaults to 127.0.0.1); unknown fields are ignored.
        /// </summary>
        /// <exception cref="FormatException">A required field is missing or of the wrong type; the message names it.</exception>
        public static HostRecord FromJson(JObject json)
        {
            if (json == null) throw new FormatException("A host record must be a JSON object.");
            return new HostRecord
            {
                InstanceId = RequiredString(json, "instanceId"),
                Pid = RequiredInt(json, "pid"),
                Port = RequiredInt(json, "port"),
                Host = OptionalString(json, "host") ?? "127.0.0.1",
                Token = RequiredString(json, "token"),
                ProjectPath = RequiredString(json, "projectPath"),
                Kind = RequiredString(json, "kind"),
                Name = OptionalString(json, "name"),
                ProtocolVersion = RequiredInt(json, "protocolVersion"),
                StartedAt = RequiredString(json, "startedAt"),
                Auth = OptionalString(json, "auth"),
                ReloadingSince = OptionalString(json, "reloadingSince"),
            };
        }

        /// <summary>Parses a record file's text (dates kept as the strings they are).</summary>
        public static HostRecord Parse(string text)
        {
            using (var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None })
            {
                return FromJson(JToken.ReadFrom(reader) as JObject);
            }
        }

        /// <summary>A time as the record writes it: ISO 8601 in UTC with milliseconds (JavaScript's toISOString()).</summary>
        public static string FormatTime(DateTime time) =>
            time.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

        private static string RequiredString(JObject json, string field) =>
            OptionalString(json, field) ?? throw new FormatException($"The host record's \"{field}\" is missing; it must be a string.");

        private static string OptionalString(JObject json, string field)
        {
            var token = json[field];
            if (token == null || token.Type == JTokenType.Null || token.Type == JTokenType.Undefined) return null;
            // A JObject parsed with Newtonsoft's defaults turns ISO strings into dates: give the text back.
            if (token.Type == JTokenType.Date) return FormatTime(token.Value<DateTime>());
            if (token.Type != JTokenType.String) throw new FormatException($"The host record's \"{field}\" must be a string, not {token.Type}.");
            return (string)token;
        }

        private static int RequiredInt(JObject json, string field)
        {
            var token = json[field];
            if (token == null) throw new FormatException($"The host record's \"{field}\" is missing; it must be an integer.");
            if (token.Type == JTokenType.Integer || token.Type == JTokenType.Float)
            {
                var value = (double)token; // 5.0 is an integer in JSON, as in zod's int()
                if (Math.Floor(value) == value && value >= int.MinValue && value <= int.MaxValue) return (int)value;
            }
            throw new FormatException($"The host record's \"{field}\" must be an integer.");
        }
    }
}
