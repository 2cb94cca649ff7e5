using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Calls
{
    /// <summary>
    /// What a running tool is given. Its methods are called from the main thread (or the thread
    /// pool), so each hops onto the loop, where the call's listeners live; nothing here touches
    /// engine state from the tool's thread.
    /// </summary>
    internal sealed class CallToolContext : IToolContext
    {
        private readonly CallEngine _engine;
        private readonly LiveCall _call;
        private readonly CallSignal _signal;
        private readonly HostLoop _loop;

        public CallToolContext(CallEngine engine, LiveCall call, CallSignal signal, HostLoop loop)
        {
            _engine = engine;
            _call = call;
            _signal = signal;
            _loop = loop;
            CallId = call.Entry.CallId;
        }

        public string CallId { get; }

        public CancellationToken Cancellation => _signal.ToolToken;

        public TetherException CancellationReason => _signal.Reason;

        public void ThrowIfCancelled()
        {
            var reason = _signal.Reason;
            if (reason != null) throw reason.With(null);
        }

        public void Progress(double? progress = null, double? total = null, string message = null)
        {
            var update = new ToolProgress(progress, total, message);
            _loop.Post(() => _engine.ToolReportedProgress(_call, update));
        }

        public void Log(string level, JToken data, string logger = null)
        {
            var copy = data?.DeepClone();
            _loop.Post(() => _engine.ToolLogged(_call, level, copy, logger));
        }

        public Task<JObject> Elicit(string message, JObject requestedSchema) =>
            _loop.Invoke(() => _engine.AskToElicit(_call, message, requestedSchema)).Unwrap();

        public Task<JToken> Sample(JObject parameters) =>
            _loop.Invoke(() => _engine.AskToSample(_call, parameters)).Unwrap();
    }
}
