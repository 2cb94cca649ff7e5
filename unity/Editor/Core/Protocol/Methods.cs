namespace Tether.Core.Protocol
{
    /// <summary>Host protocol v1: every method and notification name (protocol.md §7.0).</summary>
    public static class Methods
    {
        public const int ProtocolVersion = 1;

        /// <summary>The versions this host speaks (v1 hosts: [1]).</summary>
        public static readonly int[] SupportedProtocolVersions = { 1 };

        public const string Hello = "tether/hello";
        public const string Ping = "ping";
        public const string Cancelled = "notifications/cancelled";
        public const string ToolsList = "tools/list";
        public const string ToolsChanged = "notifications/tools/list_changed";
        public const string CallStart = "calls/start";
        public const string CallStatus = "calls/status";
        public const string CallCancel = "calls/cancel";
        public const string CallProgress = "notifications/calls/progress";
        public const string Log = "notifications/message";
        public const string ResourcesList = "resources/list";
        public const string ResourceTemplatesList = "resources/templates/list";
        public const string ResourcesRead = "resources/read";
        public const string ResourcesSubscribe = "resources/subscribe";
        public const string ResourcesUnsubscribe = "resources/unsubscribe";
        public const string ResourceUpdated = "notifications/resources/updated";
        public const string ResourcesChanged = "notifications/resources/list_changed";
        public const string PromptsList = "prompts/list";
        public const string PromptsGet = "prompts/get";
        public const string PromptsChanged = "notifications/prompts/list_changed";
        public const string Complete = "completion/complete";
        public const string Elicit = "elicitation/create";
        public const string Sample = "sampling/createMessage";
        public const string HostState = "notifications/host/state";
        public const string Bye = "notifications/host/bye";
        public const string HostStatus = "host/status";

        /// <summary>The most entries each list of a host/status result holds; "omitted" counts the rest (protocol.md §7.16).</summary>
        public const int HostStatusMaxEntries = 1000;

        /// <summary>
        /// The client name "tether serve"'s links give in their hello: where several agents already
        /// share one connection, so a host evicting it does not advise using tether serve.
        /// </summary>
        public const string ServeClientName = "tether-serve";

        /// <summary>The host states of notifications/host/state and the hello result.</summary>
        public static readonly string[] HostStates = { "ready", "compiling", "reloading", "playing", "quitting" };
    }
}
