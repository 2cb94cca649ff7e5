using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Testing
{
    /// <summary>
    /// Which tests run_tests runs, as the Test Framework's Filter takes them: every kind of name
    /// given must match, and within a kind any one (testNames exact full names, groupNames
    /// regular expressions, categoryNames, assemblyNames). run_tests' older "filter" (a text the
    /// full name contains) is one more condition, folded into the group patterns, since a Filter
    /// has no field of its own for it. Built and checked without Unity.
    /// </summary>
    internal sealed class TestSelection
    {
        public string Mode = "EditMode";
        public string Contains;
        public string[] TestNames;
        public string[] GroupNames;
        public string[] CategoryNames;
        public string[] AssemblyNames;

        /// <summary>The Filter's groupNames: the given patterns, each also requiring the "filter" text; INVALID_ARGUMENTS for a pattern that is no regular expression.</summary>
        public string[] FilterGroupNames()
        {
            var patterns = (GroupNames ?? Array.Empty<string>()).ToList();
            for (var i = 0; i < patterns.Count; i++)
            {
                try
                {
                    _ = new Regex(patterns[i]);
                }
                catch (ArgumentException error)
                {
                    var problem = "\"" + patterns[i] + "\" is not a regular expression (" + error.Message + ")";
                    throw new TetherException(
                        ErrorCodes.InvalidArguments,
                        "Invalid arguments for run_tests: groupNames." + i + ": " + problem + ". Escape the special characters, e.g. \"Game\\\\.Player\".",
                        new JObject { ["tool"] = "run_tests", ["field"] = "groupNames." + i, ["problem"] = problem });
                }
            }
            if (string.IsNullOrEmpty(Contains)) return patterns.Count > 0 ? patterns.ToArray() : null;
            var text = Regex.Escape(Contains);
            // A name must contain the text and match the pattern: a lookahead for the one, then the other anywhere.
            return patterns.Count == 0 ? new[] { text } : patterns.Select(pattern => "^(?=.*" + text + ").*?(?:" + pattern + ")").ToArray();
        }

        /// <summary>Null for an empty list: a Filter's empty field would select nothing.</summary>
        public static string[] OrNull(IEnumerable<string> names)
        {
            var list = names?.ToArray();
            return list == null || list.Length == 0 ? null : list;
        }
    }
}
