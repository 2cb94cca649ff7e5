using System;

namespace Tether.Unity.Logs
{
    /// <summary>Unity's many kinds of console entry, folded into read_console's three types.</summary>
    internal static class ConsoleLevels
    {
        public const string Log = "log";
        public const string Warning = "warning";
        public const string Error = "error";

        public static bool IsType(string type) => type == Log || type == Warning || type == Error;

        /// <summary>A LogType (by name: Error, Assert, Warning, Log, Exception) as a console type.</summary>
        public static string FromLogType(string logTypeName)
        {
            switch (logTypeName)
            {
                case "Error":
                case "Assert":
                case "Exception":
                    return Error;
                case "Warning":
                    return Warning;
                default:
                    return Log;
            }
        }

        // The bits of UnityEditor.LogEntry.mode (ConsoleWindow.Mode in Unity's C# source).
        private const int ModeError = 1 << 0;
        private const int ModeAssert = 1 << 1;
        private const int ModeFatal = 1 << 4;
        private const int ModeAssetImportError = 1 << 6;
        private const int ModeAssetImportWarning = 1 << 7;
        private const int ModeScriptingError = 1 << 8;
        private const int ModeScriptingWarning = 1 << 9;
        private const int ModeScriptCompileError = 1 << 11;
        private const int ModeScriptCompileWarning = 1 << 12;
        private const int ModeScriptingException = 1 << 17;
        private const int ModeGraphCompileError = 1 << 20;
        private const int ModeScriptingAssertion = 1 << 21;
        private const int ModeVisualScriptingError = 1 << 22;

        private const int ErrorMask = ModeError | ModeAssert | ModeFatal | ModeAssetImportError | ModeScriptingError
            | ModeScriptCompileError | ModeScriptingException | ModeGraphCompileError | ModeScriptingAssertion | ModeVisualScriptingError;

        private const int WarningMask = ModeAssetImportWarning | ModeScriptingWarning | ModeScriptCompileWarning;

        /// <summary>The type of an entry read back from Unity's console, by its mode bits.</summary>
        public static string FromLogEntryMode(int mode)
        {
            if ((mode & ErrorMask) != 0) return Error;
            if ((mode & WarningMask) != 0) return Warning;
            return Log;
        }

        /// <summary>
        /// Splits an entry's text read back from Unity's console into its message and its stack
        /// trace: at <paramref name="stackStart"/> when Unity says where the trace begins, else at
        /// the first line break followed by a frame ("UnityEngine.Debug:Log", "at ...").
        /// </summary>
        public static (string Message, string StackTrace) SplitConsoleText(string text, int stackStart = -1)
        {
            if (string.IsNullOrEmpty(text)) return ("", null);
            if (stackStart > 0 && stackStart < text.Length)
            {
                return (text.Substring(0, stackStart).TrimEnd('\n', '\r'), text.Substring(stackStart).Trim('\n', '\r'));
            }
            var lines = text.Split('\n');
            for (var i = 1; i < lines.Length; i++)
            {
                if (LooksLikeFrame(lines[i]))
                {
                    var message = string.Join("\n", lines, 0, i).TrimEnd('\r');
                    var trace = string.Join("\n", lines, i, lines.Length - i).Trim('\n', '\r');
                    return (message, trace.Length > 0 ? trace : null);
                }
            }
            return (text.TrimEnd('\n', '\r'), null);
        }

        private static bool LooksLikeFrame(string line)
        {
            var trimmed = line.TrimStart();
            return trimmed.StartsWith("UnityEngine.", StringComparison.Ordinal)
                || trimmed.StartsWith("at ", StringComparison.Ordinal)
                || (trimmed.Contains(":") && trimmed.Contains("(at "));
        }
    }
}
