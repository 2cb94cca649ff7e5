using System;
using System.Globalization;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Logs
{
    /// <summary>One console line, as read_console returns it: { type, message, at?, stackTrace?, file?, line? }.</summary>
    internal sealed class ConsoleEntry
    {
        public ConsoleEntry(string type, string message, DateTime? at, string stackTrace = null, string file = null, int? line = null)
        {
            Type = ConsoleLevels.IsType(type) ? type : ConsoleLevels.Log;
            Message = message ?? "";
            At = at;
            StackTrace = string.IsNullOrEmpty(stackTrace) ? null : stackTrace;
            File = string.IsNullOrEmpty(file) ? null : file;
            Line = line > 0 ? line : null;
        }

        /// <summary>"log", "warning" or "error".</summary>
        public string Type { get; }

        public string Message { get; }

        /// <summary>When it was logged (UTC); null for entries read back from Unity's console, which keeps no time.</summary>
        public DateTime? At { get; }

        public string StackTrace { get; }

        /// <summary>The source file Unity attached (compile errors, most logs read back from its console).</summary>
        public string File { get; }

        public int? Line { get; }

        public JObject ToJson()
        {
            var json = new JObject { ["type"] = Type, ["message"] = Message };
            if (At != null) json["at"] = At.Value.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
            if (StackTrace != null) json["stackTrace"] = StackTrace;
            if (File != null) json["file"] = File;
            if (Line != null) json["line"] = Line.Value;
            return json;
        }
    }
}
