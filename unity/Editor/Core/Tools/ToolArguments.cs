using System;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>Validated arguments read into a tool's argument class, with the serializer its schema was made from.</summary>
    internal sealed class ToolArguments
    {
        private readonly string _tool;
        private readonly Type _type;

        /// <param name="type">The argument class; null for a tool that takes none; JObject for the arguments as they are.</param>
        public ToolArguments(string tool, Type type)
        {
            _tool = tool;
            _type = type;
        }

        /// <summary>The arguments as the method takes them; INVALID_ARGUMENTS when they do not fit the class.</summary>
        public object Read(JObject validated)
        {
            if (_type == null) return null;
            if (_type == typeof(JObject)) return validated.DeepClone();
            try
            {
                return validated.ToObject(_type, ToolJson.Serializer);
            }
            catch (JsonException error)
            {
                var field = (error as JsonSerializationException)?.Path ?? (error as JsonReaderException)?.Path ?? "";
                throw ArgumentValidator.InvalidArguments(_tool, field, "cannot be read by the tool (" + FirstSentence(error.Message) + ")");
            }
            catch (Exception error) when (error is ArgumentException || error is FormatException || error is OverflowException || error is InvalidCastException)
            {
                throw ArgumentValidator.InvalidArguments(_tool, "", "cannot be read by the tool (" + FirstSentence(error.Message) + ")");
            }
        }

        /// <summary>Newtonsoft's message without its trailing "Path '…', line …" (the field says where).</summary>
        private static string FirstSentence(string message)
        {
            var cut = message.IndexOf(". Path ", StringComparison.Ordinal);
            return cut >= 0 ? message.Substring(0, cut) : message.TrimEnd('.');
        }
    }
}
