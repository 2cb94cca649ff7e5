using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Names for copies, as Edit > Duplicate gives them: "Crate" → "Crate (1)", "Crate (1)" →
    /// "Crate (2)", the first that no sibling has (port of uniqueSiblingName in
    /// src/sandbox/component-types.ts). Paths find GameObjects by name, so a copy must differ.
    /// </summary>
    internal static class SiblingNames
    {
        private static readonly Regex Numbered = new Regex(@" \(\d+\)$", RegexOptions.CultureInvariant);

        public static string Unique(string name, IEnumerable<string> siblings)
        {
            var taken = new HashSet<string>(siblings ?? Enumerable.Empty<string>());
            if (!taken.Contains(name)) return name;
            var stem = Numbered.Replace(name, "");
            for (var n = 1; ; n++)
            {
                var candidate = stem + " (" + n + ")";
                if (!taken.Contains(candidate)) return candidate;
            }
        }
    }
}
