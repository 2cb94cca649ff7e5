namespace Tether.Core.Runtime
{
    /// <summary>
    /// Where Core writes what a person may want to read: Unity's console in the editor,
    /// stderr in the console host. Never given a token or other secret.
    /// Called from any thread.
    /// </summary>
    public interface IHostLog
    {
        void Info(string message);
        void Warning(string message);
        void Error(string message);
    }

    /// <summary>A log that drops everything (tests, and hosts that were given none).</summary>
    public sealed class SilentLog : IHostLog
    {
        public static readonly SilentLog Instance = new SilentLog();
        public void Info(string message) { }
        public void Warning(string message) { }
        public void Error(string message) { }
    }
}
