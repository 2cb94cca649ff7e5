using System.Collections.Generic;
using Tether.Unity.Lifecycle;

namespace Tether.Unity.Tests.Support
{
    /// <summary>An IEditorHost that writes down what the lifecycle asked of it.</summary>
    internal sealed class RecordingHost : IEditorHost
    {
        public List<string> Calls { get; } = new List<string>();

        public void SetState(string state, long? expectedMs = null) => Calls.Add("state " + state + (expectedMs != null ? " " + expectedMs : ""));

        public void BeginReload(long expectedBackMs) => Calls.Add("reload " + expectedBackMs);

        public void Close(string reason) => Calls.Add("close " + reason);
    }

    /// <summary>An ISessionStore over a dictionary.</summary>
    internal sealed class MemorySession : ISessionStore
    {
        public Dictionary<string, string> Values { get; } = new Dictionary<string, string>();

        public string GetString(string key, string defaultValue) => Values.TryGetValue(key, out var value) ? value : defaultValue;

        public void SetString(string key, string value) => Values[key] = value;
    }
}
