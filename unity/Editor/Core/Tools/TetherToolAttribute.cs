using System;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Marks a static method as a Tether tool. The method takes (ArgsClass args, IToolContext
    /// context), or only the args, or nothing, and returns a result: a ToolResult, a string
    /// (text), any other object (structured content, serialized with Newtonsoft.Json), or a
    /// Task of one of those. The argument class's public fields and properties make the
    /// tool's input schema (see ToolArgAttribute). It runs on the editor's main thread
    /// unless MainThread is false.
    /// A project adds its own tools by marking methods in its own Editor assemblies.
    /// </summary>
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public sealed class TetherToolAttribute : Attribute
    {
        public TetherToolAttribute(string name)
        {
            Name = name;
        }

        /// <summary>Unique tool name, snake_case ([A-Za-z0-9_-], at most 64 characters; not starting with "tether_", Tether's own).</summary>
        public string Name { get; }

        /// <summary>What it does, written for a model. Required.</summary>
        public string Description { get; set; }

        public string Title { get; set; }

        // MCP annotations. Each is advertised only when set (a bool? cannot be an attribute argument).
        public bool ReadOnly { get => _readOnly ?? false; set => _readOnly = value; }
        public bool Destructive { get => _destructive ?? false; set => _destructive = value; }
        public bool Idempotent { get => _idempotent ?? false; set => _idempotent = value; }
        public bool OpenWorld { get => _openWorld ?? false; set => _openWorld = value; }

        internal bool? ReadOnlyHint => _readOnly;
        internal bool? DestructiveHint => _destructive;
        internal bool? IdempotentHint => _idempotent;
        internal bool? OpenWorldHint => _openWorld;

        private bool? _readOnly;
        private bool? _destructive;
        private bool? _idempotent;
        private bool? _openWorld;

        /// <summary>The tool may run for minutes (builds, tests, compilation).</summary>
        public bool LongRunning { get; set; }

        /// <summary>Runs on the editor's main thread, one call at a time (default true).</summary>
        public bool MainThread { get; set; } = true;

        /// <summary>How long a call may run before it is cancelled with DEADLINE_EXCEEDED; 0: the host's default.</summary>
        public long DeadlineMs { get; set; }

        /// <summary>"attach", "reject" or "allow" (protocol.md §8.10); null: the default from the annotations.</summary>
        public string Duplicates { get; set; }

        /// <summary>A class whose schema is the tool's outputSchema (its structuredContent is checked against it).</summary>
        public Type Output { get; set; }
    }

    /// <summary>
    /// Describes one argument (a public field or property of a tool's argument class). The
    /// wire name is the member's name in camelCase, or what [JsonProperty("name")] says.
    /// A member is required when Required is true; otherwise optional, and its initializer
    /// is its default (advertised as "default" when it is not null).
    /// Types: string, bool, int/long (integer), float/double (number), enums (string enum of
    /// the member names, or [EnumMember(Value = …)]), arrays and List&lt;T&gt; (array), nested
    /// classes (object), JObject (any object), JToken (any value), Nullable&lt;T&gt; (optional T).
    /// </summary>
    [AttributeUsage(AttributeTargets.Field | AttributeTargets.Property, AllowMultiple = false, Inherited = true)]
    public sealed class ToolArgAttribute : Attribute
    {
        public ToolArgAttribute(string description = null)
        {
            Description = description;
        }

        public string Description { get; set; }

        public bool Required { get; set; }

        /// <summary>Inclusive bounds for numbers; NaN means none.</summary>
        public double Minimum { get; set; } = double.NaN;
        public double Maximum { get; set; } = double.NaN;

        /// <summary>Bounds on a string's length (or an array's item count); -1 means none.</summary>
        public int MinLength { get; set; } = -1;
        public int MaxLength { get; set; } = -1;

        /// <summary>An ECMA-262 regular expression a string must match.</summary>
        public string Pattern { get; set; }

        /// <summary>The only values a string may take (for a string member; enums list theirs by themselves).</summary>
        public string[] Enum { get; set; }
    }
}
