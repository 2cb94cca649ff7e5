using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using Tether.Core.Tools;

namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// The tools a domain serves: the editor's own (this assembly's [TetherTool] methods), then
    /// every [TetherTool] method of the other loaded assemblies that reference Tether, which is
    /// how a project adds tools (in its Editor assemblies). A project tool that is declared
    /// wrongly, or that takes a name already taken (a built-in's first of all), is left out
    /// with a warning naming it: the editor starts without it rather than not at all.
    /// </summary>
    internal static class ToolRegistration
    {
        public static List<RegisteredTool> Collect(IEnumerable<Assembly> loaded, Assembly builtIn, Action<string> warn)
        {
            if (builtIn == null) throw new ArgumentNullException(nameof(builtIn));
            warn = warn ?? (_ => { });
            // The editor's own tools are part of the package: one declared wrongly is a bug, and throws.
            var tools = ToolFactory.FromAssembly(builtIn).ToList();
            var builtInNames = new HashSet<string>(tools.Select(tool => tool.Name));
            var project = ToolFactory.FromAssemblies(
                (loaded ?? Enumerable.Empty<Assembly>()).Where(assembly => assembly != null && assembly != builtIn),
                refused => warn("Tether left a project tool out: " + refused.Message));
            foreach (var tool in project)
            {
                if (builtInNames.Contains(tool.Name))
                {
                    warn("Tether left the project's tool \"" + tool.Name + "\" out: the editor has a built-in tool of that name. Rename the project's tool.");
                    continue;
                }
                tools.Add(tool);
            }
            return tools;
        }
    }
}
