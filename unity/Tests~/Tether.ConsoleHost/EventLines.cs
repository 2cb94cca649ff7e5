using System;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace Tether.ConsoleHost
{
    /// <summary>
    /// stdout: one JSON line per event and nothing else, for the tests and scripts that wait on
    /// them ({"event":"ready",…} after each (re)start, {"event":"reloading",…} when a reload begins),
    /// as `tether sandbox` prints its ready lines.
    /// </summary>
    internal static class EventLines
    {
        private static readonly object Gate = new object();

        public static void Ready(int port, string instanceId, int generation) =>
            Write(new JObject
            {
                ["event"] = "ready",
                ["port"] = port,
                ["instanceId"] = instanceId,
                ["pid"] = Environment.ProcessId,
                ["generation"] = generation,
            });

        public static void Reloading(int generation) =>
            Write(new JObject { ["event"] = "reloading", ["generation"] = generation });

        private static void Write(JObject line)
        {
            var text = line.ToString(Formatting.None);
            lock (Gate)
            {
                Console.Out.Write(text + "\n");
                Console.Out.Flush();
            }
        }
    }
}
