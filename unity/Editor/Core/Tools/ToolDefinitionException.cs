using System;

namespace Tether.Core.Tools
{
    /// <summary>
    /// A mistake in how a tool is declared (its argument class, its schema, its attribute),
    /// found while the tool is added. The factory turns it into INTERNAL_ERROR naming the tool,
    /// so the author hears of it at registration rather than a client at call time.
    /// </summary>
    internal sealed class ToolDefinitionException : Exception
    {
        public ToolDefinitionException(string problem) : base(problem) { }
    }
}
