using Tether.Core.Runtime;
using UnityEngine;

namespace Tether.Unity.Lifecycle
{
    /// <summary>Core's log written to Unity's console (Debug.Log is callable from any thread).</summary>
    internal sealed class UnityHostLog : IHostLog
    {
        public void Info(string message) => Debug.Log(Prefixed(message));

        public void Warning(string message) => Debug.LogWarning(Prefixed(message));

        public void Error(string message) => Debug.LogError(Prefixed(message));

        /// <summary>Core's lines name Tether already ("Tether host …", "[tether] claude-code called …"); others get the name.</summary>
        private static string Prefixed(string message) =>
            message != null && (message.StartsWith("Tether", System.StringComparison.Ordinal) || message.StartsWith("[tether]", System.StringComparison.Ordinal))
                ? message
                : "Tether: " + message;
    }
}
