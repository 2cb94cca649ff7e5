using System;
using System.Collections.Concurrent;
using System.Text.RegularExpressions;

namespace Tether.Core.Tools
{
    /// <summary>
    /// JSON Schema "pattern"s (ECMA-262 regular expressions) as .NET regexes: ECMAScript
    /// semantics where .NET has them, its own syntax otherwise; compiled once; matched with a
    /// time limit, so a pattern that backtracks badly cannot hold the host.
    /// </summary>
    internal static class JsonSchemaPatterns
    {
        private static readonly TimeSpan MatchTimeout = TimeSpan.FromMilliseconds(250);
        private const int MaxCached = 512;
        private static readonly ConcurrentDictionary<string, Regex> Cache = new ConcurrentDictionary<string, Regex>();

        public static bool TryCompile(string pattern, out Regex regex)
        {
            regex = null;
            if (pattern == null) return false;
            if (Cache.TryGetValue(pattern, out regex)) return true;
            regex = Compile(pattern, RegexOptions.ECMAScript) ?? Compile(pattern, RegexOptions.None);
            if (regex == null) return false;
            if (Cache.Count >= MaxCached) Cache.Clear();
            Cache[pattern] = regex;
            return true;
        }

        /// <summary>True when <paramref name="text"/> matches; a match that takes too long counts as no match.</summary>
        public static bool IsMatch(Regex regex, string text)
        {
            try
            {
                return regex.IsMatch(text);
            }
            catch (RegexMatchTimeoutException)
            {
                return false;
            }
        }

        private static Regex Compile(string pattern, RegexOptions options)
        {
            try
            {
                // ECMAScript combines only with IgnoreCase, Multiline and Compiled.
                var culture = (options & RegexOptions.ECMAScript) != 0 ? RegexOptions.None : RegexOptions.CultureInvariant;
                return new Regex(pattern, options | culture, MatchTimeout);
            }
            catch (ArgumentException)
            {
                return null;
            }
        }
    }
}
