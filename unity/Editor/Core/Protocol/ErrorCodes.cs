using System.Collections.Generic;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// Every stable error code with the JSON-RPC number it travels as: exactly ERROR_CODES in
    /// src/protocol/errors.ts and the table in docs/errors.md (a test holds the three equal).
    /// </summary>
    public static class ErrorCodes
    {
        // JSON-RPC 2.0's own faults.
        public const string ParseError = "PARSE_ERROR";
        public const string InvalidRequest = "INVALID_REQUEST";
        public const string MethodNotFound = "METHOD_NOT_FOUND";
        public const string InvalidParams = "INVALID_PARAMS";
        public const string InternalError = "INTERNAL_ERROR";

        // Connection and framing.
        public const string Unauthorized = "UNAUTHORIZED";
        public const string UnsupportedVersion = "UNSUPPORTED_VERSION";
        public const string HandshakeRequired = "HANDSHAKE_REQUIRED";
        public const string FrameTooLarge = "FRAME_TOO_LARGE";
        public const string HeaderInvalid = "HEADER_INVALID";
        public const string FrameTimeout = "FRAME_TIMEOUT";
        public const string ConnectionClosed = "CONNECTION_CLOSED";
        public const string RequestTimeout = "REQUEST_TIMEOUT";
        public const string Evicted = "EVICTED";
        public const string HostUnverified = "HOST_UNVERIFIED";

        // Tools and calls.
        public const string UnknownTool = "UNKNOWN_TOOL";
        public const string InvalidArguments = "INVALID_ARGUMENTS";
        public const string CallIdConflict = "CALL_ID_CONFLICT";
        public const string UnknownCall = "UNKNOWN_CALL";
        public const string Cancelled = "CANCELLED";
        public const string DeadlineExceeded = "DEADLINE_EXCEEDED";
        public const string ToolFailed = "TOOL_FAILED";
        public const string OutcomeUnknown = "OUTCOME_UNKNOWN";
        public const string PathOutsideProject = "PATH_OUTSIDE_PROJECT";
        public const string DuplicateCall = "DUPLICATE_CALL";
        public const string ResultNotWritten = "RESULT_NOT_WRITTEN";

        // Resources, prompts, client requests.
        public const string NotFound = "NOT_FOUND";
        public const string NoClient = "NO_CLIENT";
        public const string ClientRequestFailed = "CLIENT_REQUEST_FAILED";

        // Fronts finding and reaching hosts; never sent by a host, listed so a reader knows them.
        public const string HostNotFound = "HOST_NOT_FOUND";
        public const string HostAmbiguous = "HOST_AMBIGUOUS";
        public const string HostUnavailable = "HOST_UNAVAILABLE";

        /// <summary>Stable code → JSON-RPC number.</summary>
        public static readonly IReadOnlyDictionary<string, int> Numbers = new Dictionary<string, int>
        {
            [ParseError] = -32700,
            [InvalidRequest] = -32600,
            [MethodNotFound] = -32601,
            [InvalidParams] = -32602,
            [InternalError] = -32603,
            [Unauthorized] = -32000,
            [UnsupportedVersion] = -32001,
            [HandshakeRequired] = -32002,
            [FrameTooLarge] = -32003,
            [HeaderInvalid] = -32004,
            [FrameTimeout] = -32005,
            [ConnectionClosed] = -32006,
            [RequestTimeout] = -32007,
            [Evicted] = -32008,
            [HostUnverified] = -32009,
            [UnknownTool] = -32010,
            [InvalidArguments] = -32011,
            [CallIdConflict] = -32012,
            [UnknownCall] = -32013,
            [Cancelled] = -32014,
            [DeadlineExceeded] = -32015,
            [ToolFailed] = -32016,
            [OutcomeUnknown] = -32017,
            [PathOutsideProject] = -32018,
            [DuplicateCall] = -32019,
            [ResultNotWritten] = -32020,
            [NotFound] = -32030,
            [NoClient] = -32031,
            [ClientRequestFailed] = -32032,
            [HostNotFound] = -32040,
            [HostAmbiguous] = -32041,
            [HostUnavailable] = -32042,
        };

        private static readonly Dictionary<int, string> ByNumber = Invert();

        private static Dictionary<int, string> Invert()
        {
            var byNumber = new Dictionary<int, string>();
            foreach (var pair in Numbers) byNumber[pair.Value] = pair.Key;
            return byNumber;
        }

        public static bool IsKnown(string code) => code != null && Numbers.ContainsKey(code);

        /// <summary>The number a code travels as; INTERNAL_ERROR's for a code this host does not know.</summary>
        public static int NumberOf(string code) => code != null && Numbers.TryGetValue(code, out var number) ? number : Numbers[InternalError];

        /// <summary>The code a number stands for, or null.</summary>
        public static string CodeOf(int number) => ByNumber.TryGetValue(number, out var code) ? code : null;
    }
}
