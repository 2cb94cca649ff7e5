using System.Collections.Concurrent;
using Tether.Core.Runtime;

namespace Tether.Unity.Tests.Support
{
    /// <summary>An IHostLog that keeps every line, for assertions.</summary>
    internal sealed class RecordingLog : IHostLog
    {
        public ConcurrentQueue<string> Errors { get; } = new ConcurrentQueue<string>();
        public ConcurrentQueue<string> Warnings { get; } = new ConcurrentQueue<string>();

        public void Info(string message) { }

        public void Warning(string message) => Warnings.Enqueue(message);

        public void Error(string message) => Errors.Enqueue(message);
    }
}
