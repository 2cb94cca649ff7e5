using System;
using System.Collections.Generic;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Tether.Core.Discovery;

namespace Tether.Core.Kit
{
    /// <summary>
    /// The kit's counters, in &lt;project&gt;/Library/Tether/conformance-counters.json: on disk so
    /// they survive domain reloads and restarts, which is what at-most-once is tested across.
    /// Written whole to a temporary file and renamed over the old one, so a crash leaves the
    /// old counts or the new ones, never half a file. Used on the main thread only (the
    /// kit's tools run there, one at a time).
    /// </summary>
    internal sealed class ConformanceCounters
    {
        private readonly string _path;

        public ConformanceCounters(string projectPath)
        {
            _path = Path.Combine(projectPath ?? ".", "Library", "Tether", "conformance-counters.json");
        }

        public string FilePath => _path;

        /// <summary>The counter (0 for a key never counted).</summary>
        public long Read(string key) => Load().TryGetValue(key, out var count) ? count : 0;

        /// <summary>Adds one to the counter and returns the new count.</summary>
        public long Increment(string key)
        {
            var all = Load();
            all.TryGetValue(key, out var count);
            all[key] = count + 1;
            Save(all);
            return count + 1;
        }

        /// <summary>The counters; none when the file is missing or unreadable (as the sandbox's readJson falls back).</summary>
        private Dictionary<string, long> Load()
        {
            var counters = new Dictionary<string, long>(StringComparer.Ordinal);
            try
            {
                if (!File.Exists(_path)) return counters;
                if (!(JToken.Parse(File.ReadAllText(_path, Encoding.UTF8)) is JObject json)) return counters;
                foreach (var pair in json)
                {
                    if (pair.Value.Type == JTokenType.Integer || pair.Value.Type == JTokenType.Float) counters[pair.Key] = (long)pair.Value;
                }
            }
            catch (Exception error) when (error is IOException || error is JsonException || error is UnauthorizedAccessException || error is OverflowException)
            {
                // A damaged file counts as none, as in the sandbox: the suite then sees the miscount.
            }
            return counters;
        }

        private void Save(Dictionary<string, long> counters)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(_path));
            var json = new JObject();
            foreach (var pair in counters) json[pair.Key] = pair.Value;
            var temp = _path + ".tmp";
            File.WriteAllText(temp, Tools.ToolJson.Pretty(json) + "\n", new UTF8Encoding(false));
            FileMoves.MoveOver(temp, _path);
        }
    }
}
