namespace Tether.Core.Kit
{
    /// <summary>What the conformance kit needs from the editor it runs in.</summary>
    public interface IConformanceEditor
    {
        /// <summary>The project folder: counters live in its Library/Tether.</summary>
        string ProjectPath { get; }

        /// <summary>
        /// Asks for a domain reload. The editor performs it later on its main thread, after the
        /// calling tool's result is journaled (protocol.md §9), never inside this call.
        /// </summary>
        void RequestReload();
    }
}
