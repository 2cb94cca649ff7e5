namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// What survives a domain reload but not the editor process: Unity's SessionState
    /// (UnitySessionStore), or a dictionary in tests.
    /// </summary>
    internal interface ISessionStore
    {
        string GetString(string key, string defaultValue);
        void SetString(string key, string value);
    }
}
