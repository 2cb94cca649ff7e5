using System;
using System.Globalization;
using System.IO;
using System.Text;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// A message to send, by its parts, so that a large result is written straight into the frame
    /// rather than first copied into a new JObject (adding a token that has a parent clones it).
    /// </summary>
    public sealed class OutgoingMessage
    {
        private OutgoingMessage() { }

        public bool HasId { get; private set; }

        /// <summary>The id (null JSON for an error about no request).</summary>
        public JToken Id { get; private set; }

        public string Method { get; private set; }
        public JToken Params { get; private set; }
        public JToken Result { get; private set; }

        /// <summary>The wire error object ({ code, message, data }).</summary>
        public JObject Error { get; private set; }

        public static OutgoingMessage Request(long id, string method, JToken parameters) =>
            new OutgoingMessage { HasId = true, Id = new JValue(id), Method = method, Params = parameters };

        public static OutgoingMessage Notification(string method, JToken parameters) =>
            new OutgoingMessage { Method = method, Params = parameters };

        public static OutgoingMessage Success(JToken id, JToken result) =>
            new OutgoingMessage { HasId = true, Id = id, Result = result };

        public static OutgoingMessage Failure(JToken id, TetherException error) =>
            new OutgoingMessage { HasId = true, Id = id ?? JValue.CreateNull(), Error = error.ToWire() };

        /// <summary>Writes the message as JSON, members in the order the reference writes them.</summary>
        public void WriteTo(JsonWriter writer)
        {
            writer.WriteStartObject();
            writer.WritePropertyName("jsonrpc");
            writer.WriteValue("2.0");
            if (HasId)
            {
                writer.WritePropertyName("id");
                WriteId(writer, Id);
            }
            if (Method != null)
            {
                writer.WritePropertyName("method");
                writer.WriteValue(Method);
                if (Params != null)
                {
                    writer.WritePropertyName("params");
                    Params.WriteTo(writer);
                }
            }
            else if (Error != null)
            {
                writer.WritePropertyName("error");
                Error.WriteTo(writer);
            }
            else
            {
                writer.WritePropertyName("result");
                // Results are objects; methods with nothing to return answer {} (never null).
                if (Result == null || Result.Type == JTokenType.Null || Result.Type == JTokenType.Undefined) writer.WriteRawValue("{}");
                else Result.WriteTo(writer);
            }
            writer.WriteEndObject();
        }

        /// <summary>An id as a JavaScript peer wrote it: 1.0 is the number 1.</summary>
        private static void WriteId(JsonWriter writer, JToken id)
        {
            if (id != null && id.Type == JTokenType.Float)
            {
                var number = id.Value<double>();
                if (Math.Floor(number) == number && Math.Abs(number) < 9.2e18)
                {
                    writer.WriteValue((long)number);
                    return;
                }
            }
            if (id == null) writer.WriteNull();
            else id.WriteTo(writer);
        }
    }

    /// <summary>
    /// Content-Length framing, writing side: a message becomes <c>Content-Length: N\r\n\r\n</c>
    /// and N bytes of UTF-8 JSON, in one array ready to write. Refuses a body over the receiver's
    /// limit (FRAME_TOO_LARGE) before anything is sent.
    /// </summary>
    public static class FrameEncoder
    {
        /// <summary>Lone surrogates become U+FFFD rather than an exception: a frame is always valid UTF-8.</summary>
        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false, false);

        public static byte[] Encode(OutgoingMessage message, long maxFrameBytes)
        {
            if (message == null) throw new ArgumentNullException(nameof(message));
            return Frame(Serialize(w => message.WriteTo(w)), maxFrameBytes);
        }

        /// <summary>Frames any JSON value (tests and raw peers write arbitrary messages).</summary>
        public static byte[] Encode(JToken message, long maxFrameBytes)
        {
            if (message == null) throw new ArgumentNullException(nameof(message));
            return Frame(Serialize(w => message.WriteTo(w)), maxFrameBytes);
        }

        /// <summary>A frame around a body given as text (tests write malformed bodies this way).</summary>
        public static byte[] Frame(string body, long maxFrameBytes)
        {
            int length = Utf8.GetByteCount(body);
            RefuseOversize(length, maxFrameBytes);
            var header = "Content-Length: " + length.ToString(CultureInfo.InvariantCulture) + "\r\n\r\n";
            var frame = new byte[header.Length + length];
            for (int i = 0; i < header.Length; i++) frame[i] = (byte)header[i];
            Utf8.GetBytes(body, 0, body.Length, frame, header.Length);
            return frame;
        }

        private static string Serialize(Action<JsonWriter> write)
        {
            var text = new StringWriter(CultureInfo.InvariantCulture);
            using (var writer = new JsonTextWriter(text) { Formatting = Formatting.None, DateFormatHandling = DateFormatHandling.IsoDateFormat })
            {
                write(writer);
            }
            return text.ToString();
        }

        private static void RefuseOversize(long length, long maxFrameBytes)
        {
            if (length <= maxFrameBytes) return;
            throw new TetherException(
                ErrorCodes.FrameTooLarge,
                $"Outgoing message of {length} bytes exceeds the {maxFrameBytes}-byte frame limit. Return a smaller result (for example, write large data to a file and return its path).",
                new JObject { ["length"] = length, ["maxFrameBytes"] = maxFrameBytes });
        }
    }
}
