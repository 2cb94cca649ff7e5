using System;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// A typed error of the host protocol (docs/errors.md): a stable string code to match on,
    /// the JSON-RPC number it travels as, a message that says what happened and what to do,
    /// and data for machines. Tools throw it to fail a call with a code of their own
    /// (PATH_OUTSIDE_PROJECT, CANCELLED, …); any other exception a tool throws is TOOL_FAILED.
    /// </summary>
    public class TetherException : Exception
    {
        public TetherException(string code, string message, JObject data = null, Exception inner = null)
            : base(message, inner)
        {
            Code = ErrorCodes.IsKnown(code) ? code : ErrorCodes.InternalError;
            Data = data != null ? (JObject)data.DeepClone() : new JObject();
            if (!ErrorCodes.IsKnown(code) && code != null) Data["unknownCode"] = code;
        }

        /// <summary>The stable string code (never a number).</summary>
        public string Code { get; }

        /// <summary>The error's own data, without the "code" key the wire form adds.</summary>
        public new JObject Data { get; }

        public int RpcCode => ErrorCodes.NumberOf(Code);

        /// <summary>A copy with more data (later keys win), the same code and message.</summary>
        public TetherException With(JObject more)
        {
            var data = (JObject)Data.DeepClone();
            if (more != null) foreach (var pair in more) data[pair.Key] = pair.Value?.DeepClone();
            return new TetherException(Code, Message, data, InnerException);
        }

        /// <summary>The JSON-RPC error object: { code: number, message, data: { ...data, code } }.</summary>
        public JObject ToWire()
        {
            var data = (JObject)Data.DeepClone();
            data["code"] = Code;
            return new JObject { ["code"] = RpcCode, ["message"] = Message, ["data"] = data };
        }

        /// <summary>The stored shape (journal, calls/status.error): { code: string, message, data }.</summary>
        public JObject ToJson() => new JObject { ["code"] = Code, ["message"] = Message, ["data"] = Data.DeepClone() };

        /// <summary>Rebuilds an error from its stored shape ({ code: string, message, data }).</summary>
        public static TetherException FromJson(JObject stored)
        {
            var code = (string)stored?["code"] ?? ErrorCodes.InternalError;
            var message = (string)stored?["message"] ?? "Unknown error.";
            return new TetherException(code, message, stored?["data"] as JObject);
        }

        /// <summary>
        /// Reads a JSON-RPC error object as docs/errors.md says: data.code when it is a known
        /// code, else the number's code, else INTERNAL_ERROR keeping the number in data.rpcCode.
        /// </summary>
        public static TetherException FromWire(JObject wire)
        {
            var data = wire?["data"] is JObject d ? (JObject)d.DeepClone() : new JObject();
            var named = data["code"]?.Type == JTokenType.String ? (string)data["code"] : null;
            data.Remove("code");
            var message = wire?["message"]?.Type == JTokenType.String ? (string)wire["message"] : "Unknown error.";
            if (ErrorCodes.IsKnown(named)) return new TetherException(named, message, data);
            var number = wire?["code"]?.Type == JTokenType.Integer ? (int)wire["code"] : 0;
            var code = ErrorCodes.CodeOf(number);
            if (code != null) return new TetherException(code, message, data);
            data["rpcCode"] = number;
            return new TetherException(ErrorCodes.InternalError, message, data);
        }
    }
}
