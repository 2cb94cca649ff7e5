using System;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// JSON-RPC 2.0 messages as they arrive: a frame body becomes a JSON value (strict UTF-8,
    /// strict JSON, bounded depth), and the value is checked to be one well-formed message
    /// (protocol.md §3.3, §4.1). Thread-safe (no state): large bodies are parsed off the loop.
    /// </summary>
    public static class Messages
    {
        /// <summary>
        /// How deep a message may nest. Code that walks a parsed value recurses (Newtonsoft's
        /// writer, canonical JSON, argument validation), so depth is refused before parsing.
        /// </summary>
        public const int MaxDepth = 64;

        private static readonly UTF8Encoding StrictUtf8 = new UTF8Encoding(false, true);

        private static readonly JsonLoadSettings LoadSettings = new JsonLoadSettings
        {
            CommentHandling = CommentHandling.Ignore,
            LineInfoHandling = LineInfoHandling.Ignore,
            DuplicatePropertyNameHandling = DuplicatePropertyNameHandling.Replace,
        };

        /// <summary>
        /// The JSON value of a frame body. Throws PARSE_ERROR (not UTF-8, not JSON, empty) or
        /// INVALID_REQUEST (nested deeper than <see cref="MaxDepth"/>: the message is JSON, so it is
        /// answered with its id when one can be read, in <see cref="BodyException.Id"/>).
        /// </summary>
        public static JToken ParseBody(byte[] body)
        {
            string text;
            try
            {
                // A byte-order mark is stripped, as a TextDecoder does; the body must not need one.
                int skip = body.Length >= 3 && body[0] == 0xEF && body[1] == 0xBB && body[2] == 0xBF ? 3 : 0;
                text = StrictUtf8.GetString(body, skip, body.Length - skip);
            }
            catch (ArgumentException)
            {
                throw new BodyException(new TetherException(ErrorCodes.ParseError, ParseFailure("it is not valid UTF-8")), null);
            }
            switch (StrictJson.Check(text, MaxDepth))
            {
                case StrictJson.Verdict.Invalid:
                    throw new BodyException(new TetherException(ErrorCodes.ParseError, ParseFailure("it is not valid JSON")), null);
                case StrictJson.Verdict.TooDeep:
                    throw new BodyException(
                        new TetherException(ErrorCodes.InvalidRequest, $"Invalid JSON-RPC message: it nests deeper than {MaxDepth} levels. Send flatter params.", new JObject { ["maxDepth"] = MaxDepth }),
                        TopLevelId(text));
            }
            try
            {
                using (var reader = NewReader(text))
                {
                    return JToken.ReadFrom(reader, LoadSettings);
                }
            }
            catch (Exception error) when (error is JsonException || error is FormatException || error is OverflowException)
            {
                // Valid JSON Newtonsoft still cannot hold (a number out of its range).
                throw new BodyException(new TetherException(ErrorCodes.ParseError, ParseFailure("it is not valid JSON")), null);
            }
        }

        private static string ParseFailure(string reason) =>
            $"Could not parse the frame body: {reason}. Each frame body must be one UTF-8 JSON-RPC message.";

        private static JsonTextReader NewReader(string text) => new JsonTextReader(new StringReader(text))
        {
            DateParseHandling = DateParseHandling.None,
            FloatParseHandling = FloatParseHandling.Double,
            MaxDepth = null,
        };

        /// <summary>The "id" of a top-level object, read token by token (nothing recursive), or null.</summary>
        private static JToken TopLevelId(string text)
        {
            try
            {
                using (var reader = NewReader(text))
                {
                    if (!reader.Read() || reader.TokenType != JsonToken.StartObject) return null;
                    while (reader.Read())
                    {
                        if (reader.Depth != 1 || reader.TokenType != JsonToken.PropertyName || (string)reader.Value != "id") continue;
                        if (!reader.Read()) return null;
                        var id = reader.TokenType == JsonToken.String || reader.TokenType == JsonToken.Integer || reader.TokenType == JsonToken.Float
                            ? new JValue(reader.Value)
                            : null;
                        return IsId(id) ? id : null;
                    }
                }
            }
            catch (JsonException)
            {
                // Too broken to find an id: answered with id null.
            }
            return null;
        }

        /// <summary>A string or a finite number: what a request id may be.</summary>
        public static bool IsId(JToken value)
        {
            if (value == null) return false;
            switch (value.Type)
            {
                case JTokenType.String:
                case JTokenType.Integer:
                    return true;
                case JTokenType.Float:
                    var number = value.Value<double>();
                    return !double.IsNaN(number) && !double.IsInfinity(number);
                default:
                    return false;
            }
        }

        /// <summary>
        /// Checks that a parsed JSON value is a well-formed JSON-RPC 2.0 message; returns null when
        /// it is, else the reason it is not, so the peer can be told precisely.
        /// </summary>
        public static string Validate(JToken value)
        {
            if (!(value is JObject message)) return "a message must be a JSON object (batches are not supported)";
            var version = message["jsonrpc"];
            if (version == null || version.Type != JTokenType.String || (string)version != "2.0") return "the \"jsonrpc\" member must be \"2.0\"";
            if (message.TryGetValue("method", out var method))
            {
                if (method.Type != JTokenType.String || ((string)method).Length == 0) return "the \"method\" member must be a non-empty string";
                if (message.TryGetValue("id", out var id) && !IsId(id)) return "the \"id\" member must be a string or a number";
                if (message.TryGetValue("params", out var parameters) && parameters.Type != JTokenType.Object && parameters.Type != JTokenType.Array)
                    return "the \"params\" member must be an object";
                return null;
            }
            if (message.ContainsKey("result") || message.ContainsKey("error"))
            {
                var id = message["id"];
                if (!(IsId(id) || (id != null && id.Type == JTokenType.Null))) return "a response needs an \"id\"";
                if (message.TryGetValue("error", out var error))
                {
                    if (!(error is JObject e) || !IsNumber(e["code"]) || e["message"]?.Type != JTokenType.String)
                        return "the \"error\" member needs a numeric \"code\" and a string \"message\"";
                }
                return null;
            }
            return "a message needs a \"method\" (request or notification) or a \"result\"/\"error\" (response)";
        }

        private static bool IsNumber(JToken value) => value != null && (value.Type == JTokenType.Integer || value.Type == JTokenType.Float);

        /// <summary>The id of a message that looked like a request, for answering even a malformed one; null when none.</summary>
        public static JToken IdOf(JToken value) => value is JObject message && IsId(message["id"]) ? message["id"] : null;

        public static bool IsRequest(JObject message) => message.ContainsKey("method") && message.ContainsKey("id");

        public static bool IsNotification(JObject message) => message.ContainsKey("method") && !message.ContainsKey("id");

        /// <summary>
        /// A key for an id, the same for ids JSON-RPC treats as equal: a string and a number never
        /// match, 1 and 1.0 do (they are one number to JavaScript).
        /// </summary>
        public static string IdKey(JToken id)
        {
            if (id == null) return null;
            switch (id.Type)
            {
                case JTokenType.String:
                    return "s:" + (string)id;
                case JTokenType.Integer:
                    return "n:" + Convert.ToString(((JValue)id).Value, System.Globalization.CultureInfo.InvariantCulture);
                case JTokenType.Float:
                    var number = id.Value<double>();
                    if (Math.Floor(number) == number && Math.Abs(number) < 9.2e18) return "n:" + ((long)number).ToString(System.Globalization.CultureInfo.InvariantCulture);
                    return "n:" + number.ToString("R", System.Globalization.CultureInfo.InvariantCulture);
                default:
                    return null;
            }
        }
    }

    /// <summary>A frame body that is not a message: the error to answer with, and the id to answer, if any.</summary>
    public sealed class BodyException : Exception
    {
        public BodyException(TetherException error, JToken id) : base(error.Message, error)
        {
            Error = error;
            Id = id;
        }

        public TetherException Error { get; }

        /// <summary>The id to answer (null: answer with id null).</summary>
        public JToken Id { get; }
    }
}
