using System;
using System.Globalization;
using System.Linq;
using System.Numerics;
using System.Security.Cryptography;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Journal
{
    /// <summary>
    /// Canonical JSON (protocol.md §8.2): object keys sorted at every depth (by UTF-16 code units,
    /// as JavaScript sorts them), no whitespace, numbers by value (1 and 1.0 are the same number).
    /// Two argument objects that mean the same thing serialize identically, whatever key order
    /// their client used: that is how a repeated call is recognised.
    /// </summary>
    public static class CanonicalJson
    {
        /// <summary>Deeper than any argument worth reading; past it the walk would risk the loop's stack.</summary>
        public const int MaxDepth = 1000;

        /// <summary>The canonical text of <paramref name="value"/> (null is "null").</summary>
        /// <exception cref="JsonTooDeepException">nested deeper than <see cref="MaxDepth"/>.</exception>
        public static string Of(JToken value)
        {
            var text = new StringBuilder();
            Write(value, text, 0);
            return text.ToString();
        }

        /// <summary>Equality of JSON values, insensitive to key order, numbers compared by value.</summary>
        public static bool Equal(JToken a, JToken b) => Of(a) == Of(b);

        /// <summary>
        /// The fingerprint of a call (tool and arguments as received) journaled for the conflict
        /// check and matched for identical calls in flight: SHA-256 of the tool name, a NUL and the
        /// canonical arguments, its first 32 hex digits. A missing "arguments" is {}.
        /// </summary>
        public static string Fingerprint(string tool, JObject arguments)
        {
            var text = (tool ?? "") + "\0" + Of(arguments ?? new JObject());
            using (var sha = SHA256.Create())
            {
                var digest = sha.ComputeHash(new UTF8Encoding(false).GetBytes(text));
                var hex = new StringBuilder(32);
                for (var i = 0; i < 16; i++) hex.Append(digest[i].ToString("x2", CultureInfo.InvariantCulture));
                return hex.ToString();
            }
        }

        private static void Write(JToken token, StringBuilder text, int depth)
        {
            if (depth > MaxDepth) throw new JsonTooDeepException(MaxDepth);
            switch (token?.Type ?? JTokenType.Null)
            {
                case JTokenType.Object:
                    text.Append('{');
                    var first = true;
                    foreach (var property in ((JObject)token).Properties().OrderBy(p => p.Name, StringComparer.Ordinal))
                    {
                        if (property.Value.Type == JTokenType.Undefined) continue; // as JSON.stringify drops undefined members
                        if (!first) text.Append(',');
                        first = false;
                        text.Append(JsonConvert.ToString(property.Name)).Append(':');
                        Write(property.Value, text, depth + 1);
                    }
                    text.Append('}');
                    return;
                case JTokenType.Array:
                    text.Append('[');
                    var index = 0;
                    foreach (var item in (JArray)token)
                    {
                        if (index++ > 0) text.Append(',');
                        Write(item, text, depth + 1);
                    }
                    text.Append(']');
                    return;
                case JTokenType.Integer:
                    text.Append(IntegerText(((JValue)token).Value));
                    return;
                case JTokenType.Float:
                    text.Append(FloatText(Convert.ToDouble(((JValue)token).Value, CultureInfo.InvariantCulture)));
                    return;
                case JTokenType.String:
                    text.Append(JsonConvert.ToString((string)token));
                    return;
                case JTokenType.Boolean:
                    text.Append((bool)token ? "true" : "false");
                    return;
                case JTokenType.Null:
                case JTokenType.Undefined:
                    text.Append("null");
                    return;
                default:
                    // Dates, GUIDs, URIs, bytes: only built in code, never parsed from a client; their JSON text is their value.
                    text.Append(token.ToString(Formatting.None));
                    return;
            }
        }

        private static string IntegerText(object value)
        {
            if (value is BigInteger big) return big.ToString(CultureInfo.InvariantCulture);
            return Convert.ToString(value, CultureInfo.InvariantCulture);
        }

        /// <summary>A whole number written as an integer (so 1.0 reads as 1), anything else round-trippable; NaN and infinities as null, as JSON.stringify does.</summary>
        private static string FloatText(double value)
        {
            if (double.IsNaN(value) || double.IsInfinity(value)) return "null";
            if (Math.Floor(value) == value && Math.Abs(value) < 9.2e18) return ((long)value).ToString(CultureInfo.InvariantCulture);
            return value.ToString("R", CultureInfo.InvariantCulture);
        }
    }

    /// <summary>A JSON value nested too deeply to be read (thousands of levels).</summary>
    public sealed class JsonTooDeepException : Exception
    {
        public JsonTooDeepException(int maxDepth)
            : base("The value is nested more than " + maxDepth + " levels deep.")
        {
        }
    }
}
