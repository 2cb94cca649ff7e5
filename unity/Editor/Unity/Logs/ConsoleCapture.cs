using System;
using UnityEngine;

namespace Tether.Unity.Logs
{
    /// <summary>
    /// Fills a ConsoleBuffer for one domain: first with what Unity's console already holds
    /// (UnityLogEntries), then with every message logged from now on, from any thread
    /// (Application.logMessageReceivedThreaded).
    /// </summary>
    internal sealed class ConsoleCapture : IDisposable
    {
        private readonly ConsoleBuffer _buffer;
        private bool _attached;

        public ConsoleCapture(ConsoleBuffer buffer, UnityLogEntries unityConsole)
        {
            _buffer = buffer ?? throw new ArgumentNullException(nameof(buffer));
            UnityConsole = unityConsole;
            if (unityConsole != null)
            {
                _buffer.AddRange(unityConsole.ReadAll(out var note));
                SeedNote = note;
            }
            Application.logMessageReceivedThreaded += OnLog;
            _attached = true;
        }

        public ConsoleBuffer Buffer => _buffer;

        public UnityLogEntries UnityConsole { get; }

        /// <summary>Why the entries from before this domain are missing, or null.</summary>
        public string SeedNote { get; }

        private void OnLog(string condition, string stackTrace, LogType type) =>
            _buffer.Add(new ConsoleEntry(ConsoleLevels.FromLogType(type.ToString()), condition, DateTime.UtcNow, stackTrace));

        public void Dispose()
        {
            if (!_attached) return;
            _attached = false;
            Application.logMessageReceivedThreaded -= OnLog;
        }
    }
}
