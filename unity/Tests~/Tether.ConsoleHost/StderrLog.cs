using System;
using Tether.Core.Runtime;

namespace Tether.ConsoleHost
{
    /// <summary>The console host's log: one line per message on stderr (stdout carries only the event lines).</summary>
    internal sealed class StderrLog : IHostLog
    {
        private static readonly object Gate = new object();

        public void Info(string message) => Write("info", message);

        public void Warning(string message) => Write("warning", message);

        public void Error(string message) => Write("error", message);

        private static void Write(string level, string message)
        {
            var line = $"{DateTime.UtcNow:HH:mm:ss.fff} {level}: {message}";
            lock (Gate)
            {
                Console.Error.WriteLine(line);
                Console.Error.Flush();
            }
        }
    }
}
