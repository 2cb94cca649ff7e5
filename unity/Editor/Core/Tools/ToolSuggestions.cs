using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>"Did you mean": the known names closest to a mistyped one (port of src/schema/suggest.ts).</summary>
    public static class ToolSuggestions
    {
        /// <summary>Longer than any name worth comparing: tool names have at most 128 characters.</summary>
        private const int MaxComparedLength = 256;

        /// <summary>
        /// Up to <paramref name="max"/> candidates close to <paramref name="input"/> (case-insensitive
        /// Levenshtein distance, substrings count as close), closest first.
        /// </summary>
        public static IReadOnlyList<string> Closest(string input, IEnumerable<string> candidates, int max = 3)
        {
            // Comparing costs the product of the lengths: a megabyte-long name would hold the host for seconds.
            if (input == null || candidates == null || input.Length > MaxComparedLength) return Array.Empty<string>();
            var target = input.ToLowerInvariant();
            return candidates
                .Where(candidate => candidate != null)
                .Distinct()
                .Select(candidate =>
                {
                    var lower = candidate.ToLowerInvariant();
                    return new { candidate, score = Distance(target, lower) - SharedBonus(target, lower) };
                })
                .Where(scored => scored.score <= Math.Max(2, scored.candidate.Length / 2))
                .OrderBy(scored => scored.score)
                .ThenBy(scored => scored.candidate, StringComparer.InvariantCulture)
                .Take(Math.Max(0, max))
                .Select(scored => scored.candidate)
                .ToList();
        }

        /// <summary>UNKNOWN_TOOL with data { tool, suggestions }, naming the closest tools and tools/list.</summary>
        public static TetherException UnknownTool(string tool, IEnumerable<string> known)
        {
            var name = tool ?? "";
            var suggestions = Closest(name, known ?? Enumerable.Empty<string>());
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            var shown = Clip(name);
            return new TetherException(
                ErrorCodes.UnknownTool,
                "No tool named \"" + shown + "\"." + hint + " tools/list shows every tool.",
                new JObject { ["tool"] = shown, ["suggestions"] = new JArray(suggestions) });
        }

        /// <summary>Levenshtein distance, two rows.</summary>
        internal static int Distance(string a, string b)
        {
            var previous = new int[b.Length + 1];
            for (var j = 0; j <= b.Length; j++) previous[j] = j;
            for (var i = 1; i <= a.Length; i++)
            {
                var current = new int[b.Length + 1];
                current[0] = i;
                for (var j = 1; j <= b.Length; j++)
                {
                    var cost = a[i - 1] == b[j - 1] ? 0 : 1;
                    current[j] = Math.Min(Math.Min(previous[j] + 1, current[j - 1] + 1), previous[j - 1] + cost);
                }
                previous = current;
            }
            return previous[b.Length];
        }

        /// <summary>Substring matches ("hierarchy" for "get_hierarchy") count as close.</summary>
        private static int SharedBonus(string a, string b) =>
            a.Length >= 3 && (b.Contains(a) || a.Contains(b)) ? Math.Abs(a.Length - b.Length) : 0;

        /// <summary>Text shown back in a message, cut to <paramref name="max"/> characters (src/protocol/errors.ts clipped).</summary>
        internal static string Clip(string text, int max = 200) =>
            text == null ? "" : text.Length <= max ? text : text.Substring(0, max) + "… (" + text.Length + " characters)";
    }
}
