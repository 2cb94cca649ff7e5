using Tether.Core.Host;
using Tether.Core.Kit;

namespace Tether.ConsoleHost
{
    /// <summary>
    /// What each new domain registers on its host, as the Unity package does after every reload:
    /// the conformance kit (--conformance-kit) and the MCP conformance fixtures' tools, resources
    /// and prompts (--conformance-fixtures). Without either the host serves no tools.
    /// </summary>
    internal static class ConsoleTools
    {
        public static void Register(TetherHost host, ConsoleEditor editor, ConsoleHostArguments args)
        {
            if (args.ConformanceKit)
            {
                foreach (var tool in ConformanceKit.Tools(new KitEditor(editor))) host.Tools.Add(tool);
            }
            if (args.ConformanceFixtures)
            {
                foreach (var tool in ConformanceFixtures.Tools()) host.Tools.Add(tool);
                ConformanceFixtures.AddTo(host.Catalog);
            }
        }

        /// <summary>The editor as the kit sees it: its project (counters) and its domain reloads.</summary>
        private sealed class KitEditor : IConformanceEditor
        {
            private readonly ConsoleEditor _editor;

            public KitEditor(ConsoleEditor editor)
            {
                _editor = editor;
            }

            public string ProjectPath => _editor.ProjectPath;

            public void RequestReload() => _editor.RequestReload();
        }
    }
}
