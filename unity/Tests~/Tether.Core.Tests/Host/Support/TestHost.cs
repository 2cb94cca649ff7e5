using System;
using System.IO;
using Tether.Core.Host;

namespace Tether.Core.Tests.Host.Support
{
    /// <summary>A started TetherHost in a temp dir of its own, with a main thread of its own; disposing closes both.</summary>
    internal sealed class TestHost : IDisposable
    {
        private TestHost(TetherHost host, TestMainThread mainThread, string dir)
        {
            Host = host;
            MainThread = mainThread;
            Dir = dir;
        }

        public TetherHost Host { get; }
        public TestMainThread MainThread { get; }
        public string Dir { get; }
        public string RecordsDir => Path.Combine(Dir, "hosts");
        public int Port => Host.Port;
        public string Token => Host.Token;

        /// <summary>Quiet options for tests: no pings, no requeue grace. <paramref name="configure"/> changes them before the host is built.</summary>
        public static TestHost Start(Action<TetherHostOptions> configure = null, bool start = true, string dir = null, TestMainThread mainThread = null)
        {
            dir = dir ?? Path.Combine(Path.GetTempPath(), "tether-host-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(dir);
            mainThread = mainThread ?? new TestMainThread();
            var options = new TetherHostOptions
            {
                Kind = "test",
                Name = "Test",
                Version = "1.0.0",
                ProjectPath = dir,
                RecordsDir = Path.Combine(dir, "hosts"),
                MainThread = mainThread,
                PingIntervalMs = 0,
                RequeueGraceMs = 0,
            };
            configure?.Invoke(options);
            var host = new TetherHost(options);
            if (start) host.Start();
            return new TestHost(host, mainThread, dir);
        }

        public RawPeer Connect() => RawPeer.Connect(Port);

        /// <summary>A peer that has said hello with the token.</summary>
        public RawPeer Authenticated(string client = "raw-peer")
        {
            var peer = Connect();
            var answer = peer.Hello(Token, client: client);
            if (answer["result"] == null) throw new InvalidOperationException("The hello was refused: " + answer);
            return peer;
        }

        public void Dispose()
        {
            Host.Dispose();
            MainThread.Dispose();
            try { Directory.Delete(Dir, true); } catch (IOException) { /* a file still open: the OS cleans temp */ }
        }
    }
}
