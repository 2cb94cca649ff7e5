using System;

namespace Tether.Core.Host
{
    /// <summary>What a bye says when the embedder gives no message of its own (protocol.md §7.15).</summary>
    internal static class ByeMessages
    {
        public static string Default(string reason, long? expectedBackMs)
        {
            switch (reason)
            {
                case "reload":
                    var back = expectedBackMs.HasValue && expectedBackMs.Value > 0 ? $" and should be back in about {(long)Math.Ceiling(expectedBackMs.Value / 1000.0)} s" : "";
                    return $"The editor is reloading its code domain{back}. Reconnect when its host record shows it listening; calls in flight keep their callIds.";
                case "quit":
                    return "The editor is quitting. Start it again to continue.";
                default:
                    return "The host is shutting down.";
            }
        }
    }
}
