using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Compiling
{
    /// <summary>One compiler message: { file, line, column, severity, message }.</summary>
    internal sealed class CompileMessage
    {
        public CompileMessage(string file, int line, int column, string severity, string message)
        {
            File = file ?? "";
            Line = line;
            Column = column;
            Severity = severity ?? "error";
            Message = message ?? "";
        }

        public string File { get; }
        public int Line { get; }
        public int Column { get; }

        /// <summary>"error", "warning" or "info".</summary>
        public string Severity { get; }

        public string Message { get; }

        /// <summary>As compilers print it: "Assets/A.cs(3,5): error CS1002: ; expected" (Unity's message usually is that already).</summary>
        public string Text => File.Length == 0 || Message.StartsWith(File + "(", StringComparison.Ordinal) ? Message : File + "(" + Line + "," + Column + "): " + Severity + " " + Message;

        public JObject ToJson() => new JObject
        {
            ["file"] = File,
            ["line"] = Line,
            ["column"] = Column,
            ["severity"] = Severity,
            ["message"] = Message,
        };
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

        public JObject ToJson()
        {
            var json = new JObject
            {
                ["succeeded"] = Succeeded,
                ["errors"] = new JArray(Errors.Select(error => error.Text).ToArray()),
                ["domainReload"] = DomainReload,
                ["assembliesCompiled"] = AssembliesCompiled,
                ["messages"] = new JArray(_messages.Select(message => message.ToJson())),
            };
            if (DomainReload)
            {
                json["note"] = "The editor reloads its code domain now: the connection drops for a few seconds. The project's [TetherTool] methods load with the new domain; tools/list shows them once the editor is back.";
            }
            else if (UpToDate)
            {
                json["note"] = "Unity found nothing to compile: the scripts were up to date, so the domain does not reload.";
            }
            return json;
        }

        /// <summary>compile_scripts' result: the outcome, or a failed result listing the errors.</summary>
        public object Answer()
        {
            var json = ToJson();
            if (Succeeded) return json;
            var errors = Errors.Select(error => error.Text).ToList();
            var text = "Compilation failed with " + errors.Count + " error(s); the editor kept its previous scripts. Fix these, then compile again:\n" + string.Join("\n", errors);
            return new ToolResult { IsError = true, StructuredContent = json }.Add(ToolContent.Text(text));
        }
    }
}
