using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;

namespace Tether.Core.Tests.Calls.Support
{
    /// <summary>A connection as the engine sees it, recording every progress, log and question it is sent.</summary>
    internal sealed class RecordingObserver : ICallObserver
    {
        private readonly object _gate = new object();
        private readonly List<JObject> _progress = new List<JObject>();
        private readonly List<JObject> _logs = new List<JObject>();
        private readonly Changes _changes;

        public RecordingObserver(string id, Changes changes, bool canElicit = false, bool canSample = false)
        {
            Id = id;
            _changes = changes;
            CanElicit = canElicit;
            CanSample = canSample;
        }

        public string Id { get; }
        public bool CanElicit { get; }
        public bool CanSample { get; }

        /// <summary>Answers elicitation/create; by default never (a human thinking), until cancelled.</summary>
        public Func<string, string, CancellationToken, Task<JObject>> OnElicit;

        /// <summary>The questions asked: (callId, message), and whether each was cancelled.</summary>
        public readonly List<(string CallId, string Message)> Questions = new List<(string, string)>();
        public int CancelledQuestions;

        public List<JObject> ProgressSeen
        {
            get { lock (_gate) return _progress.ToList(); }
        }

        public List<JObject> LogsSeen
        {
            get { lock (_gate) return _logs.ToList(); }
        }

        public List<JObject> Heartbeats(string callId) =>
            ProgressSeen.Where(p => (string)p["callId"] == callId && (bool)p["heartbeat"]).ToList();

        public void Progress(JObject progressParams)
        {
            lock (_gate) _progress.Add(progressParams);
            _changes.Pulse();
        }

        public void Log(string callId, string level, JToken data, string logger)
        {
            lock (_gate) _logs.Add(new JObject { ["callId"] = callId, ["level"] = level, ["data"] = data, ["logger"] = logger });
            _changes.Pulse();
        }

        public Task<JObject> Elicit(string callId, string message, JObject requestedSchema, CancellationToken cancellation)
        {
            lock (_gate) Questions.Add((callId, message));
            _changes.Pulse();
            if (OnElicit != null) return OnElicit(callId, message, cancellation);
            var answer = new TaskCompletionSource<JObject>(TaskCreationOptions.RunContinuationsAsynchronously);
            cancellation.Register(() =>
            {
                Interlocked.Increment(ref CancelledQuestions);
                answer.TrySetException(new OperationCanceledException("elicitation cancelled"));
                _changes.Pulse();
            });
            return answer.Task;
        }

        public Task<JToken> Sample(string callId, JObject parameters, CancellationToken cancellation) =>
            Task.FromResult<JToken>(new JObject { ["role"] = "assistant", ["callId"] = callId });
    }
}
