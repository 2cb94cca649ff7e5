using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// Property paths as agents write them ("m_Mass", "waypoints[2].position", "stats.maxHealth")
    /// turned into the paths SerializedObject.FindProperty takes ("waypoints.Array.data[2].position"),
    /// and back. Unity-free, so the parsing is tested under dotnet; the serialized-property tools
    /// use it (port of src/sandbox/property-path.ts).
    /// </summary>
    internal static class PropertyPaths
    {
        /// <summary>One step of a path: a field name, or an index into the array before it.</summary>
        public readonly struct Segment
        {
            public Segment(string name, int index)
            {
                Name = name;
                Index = index;
            }

            /// <summary>The field's name; null for an index.</summary>
            public string Name { get; }

            /// <summary>The index into an array or list; -1 for a field.</summary>
            public int Index { get; }

            public bool IsIndex => Name == null;
        }

        /// <summary>
        /// The segments of <paramref name="path"/>. Both spellings of an element are taken:
        /// "list[3]" and Unity's own "list.Array.data[3]". INVALID_ARGUMENTS (data: tool, field,
        /// problem) for an empty path, an empty name, an unclosed or non-numeric index.
        /// </summary>
        public static IReadOnlyList<Segment> Parse(string path, string tool, string field = "property")
        {
            if (string.IsNullOrWhiteSpace(path)) throw Refuse(tool, field, "the path is empty");
            var segments = new List<Segment>();
            var i = 0;
            while (i < path.Length)
            {
                var start = i;
                while (i < path.Length && path[i] != '.' && path[i] != '[') i++;
                var name = path.Substring(start, i - start);
                if (name.Length == 0)
                {
                    if (start == 0 && i < path.Length && path[i] == '[') throw Refuse(tool, field, "\"" + path + "\" starts with an index; name the array first");
                    throw Refuse(tool, field, "\"" + path + "\" has an empty name at character " + (start + 1));
                }
                if (name == "Array" && segments.Count > 0 && i + 5 < path.Length && string.CompareOrdinal(path, i, ".data[", 0, 6) == 0)
                {
                    i += 5; // Unity's "Array.data[n]" is an index into the array before it.
                }
                else
                {
                    segments.Add(new Segment(name, -1));
                }
                while (i < path.Length && path[i] == '[')
                {
                    var close = path.IndexOf(']', i);
                    if (close < 0) throw Refuse(tool, field, "\"" + path + "\" has a \"[\" without its \"]\"");
                    var text = path.Substring(i + 1, close - i - 1);
                    if (!int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var index))
                    {
                        throw Refuse(tool, field, "\"" + path + "\" has the index \"" + text + "\", not a whole number from 0");
                    }
                    segments.Add(new Segment(null, index));
                    i = close + 1;
                }
                if (i < path.Length)
                {
                    if (path[i] != '.') throw Refuse(tool, field, "\"" + path + "\" has \"" + path[i] + "\" after an index; use \".\" before a field");
                    i++;
                    if (i == path.Length) throw Refuse(tool, field, "\"" + path + "\" ends with \".\"");
                }
            }
            return segments;
        }

        /// <summary>Unity's propertyPath for the segments: "waypoints.Array.data[2].position".</summary>
        public static string ToUnity(IEnumerable<Segment> segments)
        {
            var text = new StringBuilder();
            foreach (var segment in segments)
            {
                if (segment.IsIndex)
                {
                    text.Append(".Array.data[").Append(segment.Index.ToString(CultureInfo.InvariantCulture)).Append(']');
                }
                else
                {
                    if (text.Length > 0) text.Append('.');
                    text.Append(segment.Name);
                }
            }
            return text.ToString();
        }

        /// <summary>The short spelling agents write: "waypoints[2].position".</summary>
        public static string ToShort(IEnumerable<Segment> segments)
        {
            var text = new StringBuilder();
            foreach (var segment in segments)
            {
                if (segment.IsIndex)
                {
                    text.Append('[').Append(segment.Index.ToString(CultureInfo.InvariantCulture)).Append(']');
                }
                else
                {
                    if (text.Length > 0) text.Append('.');
                    text.Append(segment.Name);
                }
            }
            return text.ToString();
        }

        private static TetherException Refuse(string tool, string field, string problem) =>
            new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". Write a field path such as \"m_Mass\", \"stats.maxHealth\" or \"waypoints[2].position\".",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });
    }
}
