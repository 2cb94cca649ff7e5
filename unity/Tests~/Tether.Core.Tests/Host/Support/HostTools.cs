using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Host.Support
{
    /// <summary>Tools for host tests, built from descriptors as an embedder would.</summary>
    internal static class HostTools
    {
        public static RegisteredTool Make(string name, ToolHandler handler, bool mainThread = true, bool readOnly = false) =>
            ToolFactory.FromDescriptor(new JObject
            {
                ["name"] = name,
                ["description"] = "Test tool " + name,
                ["inputSchema"] = new JObject { ["type"] = "object", ["properties"] = new JObject() },
                ["annotations"] = new JObject { ["readOnlyHint"] = readOnly },
                ["execution"] = new JObject { ["mainThread"] = mainThread },
            }, handler);

        /// <summary>A main-thread tool that holds the main thread until <paramref name="release"/> is set.</summary>
        public static RegisteredTool Blocking(string name, ManualResetEventSlim started, ManualResetEventSlim release) =>
            Make(name, (args, context) =>
            {
                started.Set();
                release.Wait(30_000);
                return Task.FromResult<object>("released");
            });

        public static RegisteredTool Echo(string name = "echo") =>
            Make(name, (args, context) => Task.FromResult<object>("echo " + args.ToString(Newtonsoft.Json.Formatting.None)), readOnly: true);
    }
}
