using System;
using System.Linq;
using System.Text;
using System.Text.RegularExpressions;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// GameObject paths matched by a glob, as find_gameobjects takes them (the sandbox's
    /// src/sandbox/path-glob.ts): "/Environment/*" the children of /Environment, "/Environment/**"
    /// everything below it and itself, "**/Lamp*" a Lamp… at any depth. "*" and "?" stay within
    /// one name; "**" spans any number of names, none included. Without a wildcard a glob is a
    /// path. Unity-free.
    /// </summary>
    internal sealed class HierarchyGlob
    {
        private readonly Regex[] _segments;

        public HierarchyGlob(string glob)
        {
            if (glob == null) throw new ArgumentNullException(nameof(glob));
            _segments = HierarchyPath.Split(glob).Select(segment => segment == "**" ? null : SegmentRegex(segment)).ToArray();
        }

        /// <summary>Whether the object at <paramref name="path"/> ("/A/B") matches.</summary>
        public bool Matches(string path) => Matches(HierarchyPath.Split(path), 0, 0);

        private bool Matches(string[] names, int p, int n)
        {
            if (p == _segments.Length) return n == names.Length;
            var segment = _segments[p];
            if (segment == null)
            {
                for (var skip = n; skip <= names.Length; skip++)
                {
                    if (Matches(names, p + 1, skip)) return true;
                }
                return false;
            }
            return n < names.Length && segment.IsMatch(names[n]) && Matches(names, p + 1, n + 1);
        }

        private static Regex SegmentRegex(string segment)
        {
            var source = new StringBuilder("^");
            foreach (var c in segment)
            {
                if (c == '*') source.Append(".*");
                else if (c == '?') source.Append('.');
                else source.Append(Regex.Escape(c.ToString()));
            }
            return new Regex(source.Append('$').ToString(), RegexOptions.Singleline | RegexOptions.CultureInvariant);
        }
    }
}
