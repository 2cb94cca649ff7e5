using System.Diagnostics;

namespace Tether.Core.Host
{
    /// <summary>The editor's process id, as the hello result and the host record give it.</summary>
    internal static class ProcessId
    {
        public static readonly int Current = ReadCurrent();

        private static int ReadCurrent()
        {
            using (var process = Process.GetCurrentProcess()) return process.Id;
        }
    }
}
