using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Tests.Support
{
    /// <summary>A tool's context with a cancellation the test controls, recording progress.</summary>
    internal sealed class FakeToolContext : IToolContext
    {
        private readonly CancellationTokenSource _cancel = new CancellationTokenSource();

        public string CallId => "k1";

        public CancellationToken Cancellation => _cancel.Token;

        public TetherException CancellationReason { get; private set; }

        public List<string> ProgressMessages { get; } = new List<string>();

        public void Cancel()
        {
            CancellationReason = new TetherException(ErrorCodes.Cancelled, "Cancelled by the client.", new JObject { ["started"] = true });
            _cancel.Cancel();
        }

        public void ThrowIfCancelled()
        {
            if (CancellationReason != null) throw CancellationReason;
        }

        public void Progress(double? progress = null, double? total = null, string message = null) => ProgressMessages.Add(message);

        public void Log(string level, JToken data, string logger = null) { }

        public Task<JObject> Elicit(string message, JObject requestedSchema) => Task.FromException<JObject>(new TetherException(ErrorCodes.NoClient, "none"));

        public Task<JToken> Sample(JObject parameters) => Task.FromException<JToken>(new TetherException(ErrorCodes.NoClient, "none"));
    }
}
