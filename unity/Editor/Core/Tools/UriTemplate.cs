using System;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;

namespace Tether.Core.Tools
{
    /// <summary>
    /// A level-1 RFC 6570 template ("scene://objects/{path}") matched against URIs (port of
    /// matchTemplate in src/host/catalog.ts): each {name} matches one or more characters other
    /// than "?" and "#" (so it may span "/"), and the matched text is percent-decoded.
    /// </summary>
    public sealed class UriTemplate
    {
        private static readonly Regex Variable = new Regex(@"\\\{([A-Za-z0-9_]+)\}", RegexOptions.CultureInvariant);
        private static readonly TimeSpan MatchTimeout = TimeSpan.FromMilliseconds(250);
        private readonly Regex _pattern;
        private readonly List<string> _names = new List<string>();

        public UriTemplate(string template)
        {
            Template = template ?? throw new ArgumentNullException(nameof(template));
            // Regex.Escape writes "{" as "\{" and leaves "}" as it is.
            var escaped = Regex.Escape(template);
            var pattern = Variable.Replace(escaped, match =>
            {
                _names.Add(match.Groups[1].Value);
                return "([^?#]+)";
            });
            _pattern = new Regex("^" + pattern + "$", RegexOptions.CultureInvariant | RegexOptions.Singleline, MatchTimeout);
        }

        public string Template { get; }

        /// <summary>The variables' names, in order.</summary>
        public IReadOnlyList<string> Names => _names;

        /// <summary>The decoded variables when the URI matches, else null (also for text that is not valid percent-encoded UTF-8).</summary>
        public IReadOnlyDictionary<string, string> Match(string uri)
        {
            if (uri == null) return null;
            Match match;
            try
            {
                match = _pattern.Match(uri);
            }
            catch (RegexMatchTimeoutException)
            {
                return null;
            }
            if (!match.Success) return null;
            var variables = new Dictionary<string, string>(StringComparer.Ordinal);
            for (var i = 0; i < _names.Count; i++)
            {
                var decoded = PercentDecode(match.Groups[i + 1].Value);
                if (decoded == null) return null;
                variables[_names[i]] = decoded;
            }
            return variables;
        }

        /// <summary>decodeURIComponent: %XX sequences as UTF-8; null for a malformed one (where JavaScript throws URIError).</summary>
        public static string PercentDecode(string text)
        {
            if (text.IndexOf('%') < 0) return text;
            var bytes = new List<byte>(text.Length);
            var output = new StringBuilder(text.Length);
            var strict = new UTF8Encoding(false, true);
            for (var i = 0; i < text.Length;)
            {
                if (text[i] != '%')
                {
                    output.Append(text[i++]);
                    continue;
                }
                bytes.Clear();
                while (i < text.Length && text[i] == '%')
                {
                    if (i + 2 >= text.Length || !IsHex(text[i + 1]) || !IsHex(text[i + 2])) return null;
                    bytes.Add(Convert.ToByte(text.Substring(i + 1, 2), 16));
                    i += 3;
                }
                try
                {
                    output.Append(strict.GetString(bytes.ToArray()));
                }
                catch (DecoderFallbackException)
                {
                    return null;
                }
            }
            return output.ToString();
        }

        private static bool IsHex(char c) => (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
