using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Compiling
{
    /// <summary>
    /// One compiler message: { file, line, column, severity, message }, its message the code and
    /// the text ("CS1002: ; expected") as the sandbox gives it: Unity's own message usually
    /// starts with the place and the severity again, which are fields here.
    /// </summary>
    internal sealed class CompileMessage
    {
        public CompileMessage(string file, int line, int column, string severity, string message)
        {
            File = file ?? "";
            Line = line;
            Column = column;
            Severity = severity ?? "error";
            Message = Plain(File, Severity, message ?? "");
        }

        /// <summary>"Assets/B.cs(3,5): error CS1002: ; expected" without "Assets/B.cs(3,5): error ".</summary>
        public static string Plain(string file, string severity, string message)
        {
            var text = message;
            if (file.Length > 0 && text.StartsWith(file + "(", StringComparison.Ordinal))
            {
                var end = text.IndexOf("): ", file.Length, StringComparison.Ordinal);
                if (end >= 0) text = text.Substring(end + 3);
            }
            return text.StartsWith(severity + " ", StringComparison.Ordinal) ? text.Substring(severity.Length + 1) : text;
        }

        public string File { get; }
        public int Line { get; }
        public int Column { get; }

        /// <summary>"error", "warning" or "info".</summary>
        public string Severity { get; }

        public string Message { get; }

        /// <summary>As compilers print it: "Assets/A.cs(3,5): error CS1002: ; expected".</summary>
        public string Text => File.Length == 0 ? Severity + " " + Message : File + "(" + Line + "," + Column + "): " + Severity + " " + Message;

        public CompilerMessageResult ToResult() => new CompilerMessageResult { File = File, Line = Line, Column = Column, Severity = Severity, Message = Message };
    }

    /// <summary>
    /// What one compilation did, and compile_scripts' answer from it: the sandbox's shape
    /// { succeeded, errors (as text lines), domainReload } plus every compiler message with its
    /// place. A compile that failed is a failed call (isError, the errors in its text), as in
    /// Unity the old scripts stay loaded; the agent must see it as one, not read
    /// "succeeded": false inside a success.
    /// </summary>
    internal sealed class CompileOutcome
    {
        private readonly List<CompileMessage> _messages = new List<CompileMessage>();

        /// <summary>How many assemblies were compiled (Unity compiles only those whose sources changed).</summary>
        public int AssembliesCompiled { get; private set; }

        /// <summary>Unity compiled nothing: the scripts were up to date.</summary>
        public bool UpToDate { get; set; }

        /// <summary>
        /// Unity compiled nothing in play mode: whether the scripts were up to date or Unity puts the
        /// compile off until play mode ends (Preferences, General, Script Changes While Playing),
        /// only leaving play mode shows.
        /// </summary>
        public bool PutOffInPlayMode { get; set; }

        public IReadOnlyList<CompileMessage> Messages => _messages;

        public IEnumerable<CompileMessage> Errors => _messages.Where(message => message.Severity == "error");

        public bool Succeeded => !Errors.Any();

        /// <summary>A successful compile of at least one assembly: Unity reloads the domain next.</summary>
        public bool DomainReload => Succeeded && AssembliesCompiled > 0;

        public void AddAssembly(IEnumerable<CompileMessage> messages)
        {
            AssembliesCompiled++;
            if (messages != null) _messages.AddRange(messages.Where(message => message != null));
        }

        /// <summary>The outcome as the tools answer it (CompileResult, compile_scripts' output schema).</summary>
        public CompileResult ToResult() => new CompileResult
        {
            Succeeded = Succeeded,
            Errors = Errors.Select(error => error.Text).ToList(),
            Messages = _messages.Select(message => message.ToResult()).ToList(),
            DomainReload = DomainReload,
            AssembliesCompiled = AssembliesCompiled,
            Note = DomainReload
                ? "The editor reloads its code domain now: the connection drops for a few seconds. The project's [TetherTool] methods load with the new domain; tools/list shows them once the editor is back."
                : PutOffInPlayMode ? PutOffNote
                : UpToDate ? "Unity found nothing to compile: the scripts were up to date, so the domain does not reload." : null,
        };

        public const string PutOffNote =
            "Unity compiled nothing: the editor is in play mode, where the scripts may be up to date or their compile put off until play mode ends (Preferences, General, Script Changes While Playing). Exit play mode (play_mode \"exit\"), then compile_scripts, to know.";

        public JObject ToJson() => (JObject)ToolJson.FromObject(ToResult());

        /// <summary>compile_scripts' result: the outcome, or a failed result listing the errors.</summary>
        public object Answer()
        {
            var json = ToJson();
            if (Succeeded) return json;
            return new ToolResult { IsError = true, StructuredContent = json }.Add(ToolContent.Text(FailureText()));
        }

        /// <summary>What a failed compile says: how many errors, that the old scripts stay, and each error (after <paramref name="before"/>).</summary>
        public string FailureText(string before = "")
        {
            var errors = Errors.Select(error => error.Text).ToList();
            return before + "Compilation failed with " + errors.Count + " error(s); the editor kept its previous scripts. Fix these, then compile again:\n" + string.Join("\n", errors);
        }
    }
}
