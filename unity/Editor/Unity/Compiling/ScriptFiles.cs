using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Paths;

namespace Tether.Unity.Compiling
{
    /// <summary>
    /// C# script files as the script tools read and write them (the sandbox's script-files.ts):
    /// a project-relative path under Assets/ ending in ".cs", the file's SHA-256 (what an edit may
    /// require to refuse a stale change), and a checked text edit that applies only where its old
    /// text occurs exactly once.
    /// </summary>
    internal static class ScriptFiles
    {
        private static readonly Regex Identifier = new Regex("^[A-Za-z_][A-Za-z0-9_]*$");

        private static readonly HashSet<string> Keywords = new HashSet<string>((
            "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double else enum event " +
            "explicit extern false finally fixed float for foreach goto if implicit in int interface internal is lock long namespace new null " +
            "object operator out override params private protected public readonly ref return sbyte sealed short sizeof stackalloc static string " +
            "struct switch this throw true try typeof uint ulong unchecked unsafe ushort using virtual void volatile while").Split(' '));

        /// <summary>"Assets/Scripts/Player.cs": PATH_OUTSIDE_PROJECT outside the project, INVALID_ARGUMENTS when not a ".cs" file under Assets/.</summary>
        public static string Normalize(string projectRoot, string input, string tool, string field = "path")
        {
            var relative = ProjectPaths.Relative(projectRoot, ProjectPaths.ResolveInside(projectRoot, input.Replace('\\', '/')));
            const string example = "e.g. \"Assets/Scripts/Player.cs\"";
            if (!relative.StartsWith("Assets/", StringComparison.Ordinal))
            {
                throw AssetPaths.Refuse(tool, field, "\"" + input + "\" is not under Assets/", "Unity compiles the scripts under Assets/, " + example + ".");
            }
            if (!relative.EndsWith(".cs", StringComparison.Ordinal) || ClassName(relative).Length == 0)
            {
                throw AssetPaths.Refuse(tool, field, "\"" + input + "\" is not a C# file (.cs)", "Give the script's path with its name and extension, " + example + ".");
            }
            return relative;
        }

        /// <summary>The class a script is expected to hold: its file name without ".cs".</summary>
        public static string ClassName(string path)
        {
            var file = path.Substring(path.LastIndexOf('/') + 1);
            return file.EndsWith(".cs", StringComparison.Ordinal) ? file.Substring(0, file.Length - 3) : file;
        }

        /// <summary>INVALID_ARGUMENTS unless <paramref name="name"/> can name a C# type or a namespace's part.</summary>
        public static void CheckIdentifier(string tool, string field, string name, string hint)
        {
            if (!Identifier.IsMatch(name ?? "") || Keywords.Contains(name)) throw AssetPaths.Refuse(tool, field, "\"" + name + "\" is not a C# identifier", hint);
        }

        public static string Sha256(string text)
        {
            using (var sha = SHA256.Create())
            {
                return string.Concat(sha.ComputeHash(new UTF8Encoding(false).GetBytes(text)).Select(b => b.ToString("x2")));
            }
        }

        /// <summary>Reads a script as UTF-8 (a byte order mark is part of its hash, as the sandbox reads it).</summary>
        public static string Read(string fullPath) => Encoding.UTF8.GetString(File.ReadAllBytes(fullPath));

        /// <summary>Writes a script as UTF-8 without a byte order mark, creating its folder.</summary>
        public static void Write(string fullPath, string text)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(fullPath));
            File.WriteAllBytes(fullPath, new UTF8Encoding(false).GetBytes(text));
        }

        /// <summary><paramref name="text"/> with its one <paramref name="oldText"/> replaced, and the line it starts on; INVALID_ARGUMENTS unless it occurs exactly once.</summary>
        public static (string Text, int Line) ReplaceOnce(string text, string oldText, string newText, string path, string tool)
        {
            if (string.IsNullOrEmpty(oldText)) throw AssetPaths.Refuse(tool, "oldText", "it is empty", "Give the exact text to replace, as it is in the file.");
            var places = Occurrences(text, oldText);
            if (places.Count == 1)
            {
                var at = places[0];
                var line = Regex.Split(text.Substring(0, at), "\r\n|\n|\r").Length;
                return (text.Substring(0, at) + newText + text.Substring(at + oldText.Length), line);
            }
            if (places.Count == 0)
            {
                var lineEnds = Occurrences(text.Replace("\r\n", "\n"), oldText.Replace("\r\n", "\n")).Count > 0
                    ? " It does once its line ends are ignored: the file's lines end with \"\\r\\n\", give oldText the same."
                    : "";
                throw AssetPaths.Refuse(tool, "oldText", "it occurs 0 times in " + path, "It must occur exactly once." + lineEnds + " Read the file again: it may differ from what you remember.")
                    .With(new JObject { ["occurrences"] = 0 });
            }
            throw AssetPaths.Refuse(tool, "oldText", "it occurs " + places.Count + " times in " + path, "It must occur exactly once: include more of the text around it.")
                .With(new JObject { ["occurrences"] = places.Count });
        }

        /// <summary>NOT_FOUND for a script that does not exist, with the closest of the project's scripts.</summary>
        public static TetherException NoScript(string tool, string path, IEnumerable<string> known)
        {
            var suggestions = ToolSuggestions.Closest(path, known);
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            return new TetherException(
                ErrorCodes.NotFound,
                tool + ": no script at \"" + path + "\"." + hint + " create_script makes a new one.",
                new JObject { ["tool"] = tool, ["path"] = path, ["suggestions"] = new JArray(suggestions) });
        }

        /// <summary>Where <paramref name="needle"/> starts in <paramref name="text"/>, each place (overlapping ones too).</summary>
        private static List<int> Occurrences(string text, string needle)
        {
            var found = new List<int>();
            for (var at = text.IndexOf(needle, StringComparison.Ordinal); at >= 0; at = text.IndexOf(needle, at + 1, StringComparison.Ordinal)) found.Add(at);
            return found;
        }
    }
}
