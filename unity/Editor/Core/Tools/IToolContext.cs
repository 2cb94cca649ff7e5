using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// What a running tool can do besides returning its result. Every member may be used from
    /// any thread (a tool body runs on the editor's main thread; the context posts to the
    /// host's loop).
    /// </summary>
    public interface IToolContext
    {
        /// <summary>The call this run serves (the executing callId).</summary>
        string CallId { get; }

        /// <summary>
        /// Fires when the call is cancelled or passes its deadline. A tool that blocks the
        /// main thread polls it (IsCancellationRequested is safe to read from any thread).
        /// </summary>
        CancellationToken Cancellation { get; }

        /// <summary>Why Cancellation fired (CANCELLED or DEADLINE_EXCEEDED), or null before it did.</summary>
        TetherException CancellationReason { get; }

        /// <summary>Throws CancellationReason once Cancellation fired; the call then ends cancelled.</summary>
        void ThrowIfCancelled();

        /// <summary>Reports progress: sent at once to every attached connection; repeated in heartbeats.</summary>
        void Progress(double? progress = null, double? total = null, string message = null);

        /// <summary>A log line for the call (notifications/message): level is an MCP log level ("info", "warning", …).</summary>
        void Log(string level, JToken data, string logger = null);

        /// <summary>Asks the human behind the MCP client (elicitation/create); fails NO_CLIENT when no attached client can answer.</summary>
        Task<JObject> Elicit(string message, JObject requestedSchema);

        /// <summary>Asks the MCP client's model (sampling/createMessage); fails NO_CLIENT when no attached client can answer.</summary>
        Task<JToken> Sample(JObject parameters);
    }
}
