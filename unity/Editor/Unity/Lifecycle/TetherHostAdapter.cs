using Tether.Core.Host;

namespace Tether.Unity.Lifecycle
{
    /// <summary>The editor's lifecycle driving Core's TetherHost.</summary>
    internal sealed class TetherHostAdapter : IEditorHost
    {
        private readonly TetherHost _host;

        public TetherHostAdapter(TetherHost host)
        {
            _host = host;
        }

        public void SetState(string state, long? expectedMs = null) => _host.SetState(state, expectedMs);

        public void BeginReload(long expectedBackMs) => _host.BeginReload(expectedBackMs);

        public void Close(string reason) => _host.Close(reason);
    }
}
