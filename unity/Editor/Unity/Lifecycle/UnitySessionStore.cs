using UnityEditor;

namespace Tether.Unity.Lifecycle
{
    /// <summary>ISessionStore over SessionState: kept across domain reloads, cleared when the editor quits.</summary>
    internal sealed class UnitySessionStore : ISessionStore
    {
        public string GetString(string key, string defaultValue) => SessionState.GetString(key, defaultValue);

        public void SetString(string key, string value) => SessionState.SetString(key, value);
    }
}
