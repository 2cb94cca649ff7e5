using System;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>What a handler does: runs with validated arguments and returns what ToolResults.From reads.</summary>
    public delegate Task<object> ToolHandler(JObject arguments, IToolContext context);

    /// <summary>
    /// A tool as the call engine sees it: its wire descriptor (complete: annotations and
    /// execution filled in), how to validate its arguments, how to run it, and how to turn what
    /// it returned into a ToolResult. Immutable; safe to read from any thread.
    /// Built by ToolFactory (from a [TetherTool] method, or a descriptor and a handler).
    /// </summary>
    public sealed class RegisteredTool
    {
        private readonly Func<JObject, JObject> _validate;
        private readonly ToolHandler _handler;
        private readonly Func<object, JObject> _toResult;

        public RegisteredTool(JObject descriptor, Func<JObject, JObject> validate, ToolHandler handler, Func<object, JObject> toResult)
        {
            Descriptor = descriptor ?? throw new ArgumentNullException(nameof(descriptor));
            _validate = validate ?? throw new ArgumentNullException(nameof(validate));
            _handler = handler ?? throw new ArgumentNullException(nameof(handler));
            _toResult = toResult ?? throw new ArgumentNullException(nameof(toResult));
            Name = (string)descriptor["name"];
            var annotations = descriptor["annotations"] as JObject ?? new JObject();
            var execution = descriptor["execution"] as JObject ?? new JObject();
            ReadOnly = (bool?)annotations["readOnlyHint"] ?? false;
            var idempotent = (bool?)annotations["idempotentHint"] ?? false;
            MainThread = (bool?)execution["mainThread"] ?? true;
            LongRunning = (bool?)execution["longRunning"] ?? false;
            DeadlineMs = (long?)execution["deadlineMs"];
            // protocol.md §8.10: only a long-running tool with side effects is shared by default (a
            // client re-sending a build joins it); identical short calls made at once each run.
            DuplicatePolicy = (string)execution["duplicates"] ?? (!ReadOnly && !idempotent && LongRunning ? "attach" : "allow");
        }

        public string Name { get; }

        /// <summary>The ToolDescriptor sent in tools/list. Do not modify.</summary>
        public JObject Descriptor { get; }

        /// <summary>annotations.readOnlyHint: the journal may keep its calls in memory only.</summary>
        public bool ReadOnly { get; }

        /// <summary>execution.mainThread: run on the editor's main thread, one call at a time.</summary>
        public bool MainThread { get; }

        public bool LongRunning { get; }

        /// <summary>execution.deadlineMs, when the tool sets one.</summary>
        public long? DeadlineMs { get; }

        /// <summary>"attach", "reject" or "allow": the declared policy, else the default from the annotations.</summary>
        public string DuplicatePolicy { get; }

        /// <summary>Validated arguments (defaults applied), or throws TetherException INVALID_ARGUMENTS (data: tool, field, problem).</summary>
        public JObject Validate(JObject arguments) => _validate(arguments ?? new JObject());

        /// <summary>Runs the tool. The engine calls it on the main thread for a main-thread tool.</summary>
        public Task<object> Invoke(JObject arguments, IToolContext context) => _handler(arguments, context);

        /// <summary>
        /// The ToolResult JObject ({ content, structuredContent?, isError? }) for what the handler
        /// returned; throws TetherException TOOL_FAILED when it is malformed or a successful
        /// result does not match the tool's output schema.
        /// </summary>
        public JObject ToResult(object returned) => _toResult(returned);
    }
}
