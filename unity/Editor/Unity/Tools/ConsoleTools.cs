using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Tools
{
    public sealed class ReadConsoleArgs
    {
        [ToolArg("Only these entry types.", Enum = new[] { "log", "warning", "error" })]
        public string[] Types;

        [ToolArg("At most this many (the newest).", Minimum = 1, Maximum = 10000)]
        public int Count = 100;

        [ToolArg("Only entries whose message contains this text.")]
        public string Filter;
    }

    /// <summary>Console tools: read and clear the editor console.</summary>
    public static class ConsoleTools
    {
        [TetherTool("read_console", Title = "Read console",
            Description = "Returns editor console entries (logs, warnings, errors), newest last.",
            ReadOnly = true, Idempotent = true)]
        public static object ReadConsole(ReadConsoleArgs args)
        {
            var console = EditorServices.Require().Console;
            var entries = console.Buffer.Read(args.Types, args.Count, args.Filter);
            var result = new JObject
            {
                ["count"] = entries.Count,
                ["entries"] = new JArray(entries.Select(entry => entry.ToJson())),
            };
            if (console.SeedNote != null) result["note"] = console.SeedNote;
            return result;
        }

        [TetherTool("clear_console", Title = "Clear console",
            Description = "Removes every entry from the editor console.",
            ReadOnly = false, Destructive = true, Idempotent = true)]
        public static object ClearConsole()
        {
            var console = EditorServices.Require().Console;
            var cleared = console.Buffer.Clear();
            var result = new JObject { ["cleared"] = cleared };
            string note = null;
            var unityCleared = console.UnityConsole != null && console.UnityConsole.Clear(out note);
            if (!unityCleared) result["note"] = note ?? "Unity's console window could not be cleared; Tether's copy of it was.";
            return result;
        }
    }
}
