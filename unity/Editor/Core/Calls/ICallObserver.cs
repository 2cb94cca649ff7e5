using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Calls
{
    /// <summary>
    /// A connection's view of the calls it started or attached to (the TypeScript host's
    /// CallObserver). Called on the host loop only; the methods that send enqueue a frame and
    /// return at once, so the engine never waits on a socket.
    /// </summary>
    public interface ICallObserver
    {
        /// <summary>The connection's id ("c1", "c2", …): also its fairness lane.</summary>
        string Id { get; }

        /// <summary>Sends notifications/calls/progress with these params (callId as this connection knows the call).</summary>
        void Progress(JObject progressParams);

        /// <summary>Sends notifications/message for the call.</summary>
        void Log(string callId, string level, JToken data, string logger);

        /// <summary>The client declared capabilities.elicitation.</summary>
        bool CanElicit { get; }

        /// <summary>The client declared capabilities.sampling.</summary>
        bool CanSample { get; }

        /// <summary>Sends elicitation/create; cancelling sends notifications/cancelled for it.</summary>
        Task<JObject> Elicit(string callId, string message, JObject requestedSchema, CancellationToken cancellation);

        /// <summary>Sends sampling/createMessage (params plus callId); cancelling sends notifications/cancelled for it.</summary>
        Task<JToken> Sample(string callId, JObject parameters, CancellationToken cancellation);
    }

    /// <summary>calls/start params, validated by the connection (protocol.md §7.4).</summary>
    public sealed class CallStartParams
    {
        public string CallId;
        public string Tool;
        /// <summary>Never null: a missing "arguments" is {}.</summary>
        public JObject Arguments = new JObject();
        public long? DeadlineMs;
        public bool AttachOnly;
        /// <summary>The agent that asked for the call ({ name, version? }), or null when the client did not say.</summary>
        public JObject Agent;
    }
}
