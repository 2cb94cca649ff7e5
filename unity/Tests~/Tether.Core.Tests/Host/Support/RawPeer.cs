using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Discovery;
using Tether.Core.Protocol;

namespace Tether.Core.Tests.Host.Support
{
    /// <summary>
    /// A client that writes whatever bytes a test wants and reads every frame the host sends,
    /// with no client library in between: what the conformance suite's raw connection is.
    /// </summary>
    internal sealed class RawPeer : IDisposable
    {
        public const int WaitMs = 5000;

        private readonly TcpClient _client;
        private readonly Stream _stream;
        private readonly Channel<JObject> _incoming = Channel.CreateUnbounded<JObject>();
        private readonly TaskCompletionSource<bool> _closed = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly List<JObject> _seen = new List<JObject>();

        private RawPeer(TcpClient client)
        {
            _client = client;
            _stream = client.GetStream();
            _ = ReadLoop();
        }

        /// <summary>A peer over a TcpClient already connected.</summary>
        public static RawPeer Over(TcpClient client) => new RawPeer(client);

        public static RawPeer Connect(int port)
        {
            var client = new TcpClient(AddressFamily.InterNetwork);
            client.NoDelay = true;
            client.Connect("127.0.0.1", port);
            return new RawPeer(client);
        }

        /// <summary>"127.0.0.1:port" as the host sees this peer.</summary>
        public string LocalEndpoint => _client.Client.LocalEndPoint.ToString();

        /// <summary>Answer the host's pings with {} (off: they go unanswered).</summary>
        public bool AnswerPings { get; set; } = true;

        /// <summary>Completes when the host closed the connection (or it broke).</summary>
        public Task Closed => _closed.Task;

        public bool IsClosed => _closed.Task.IsCompleted;

        /// <summary>Every message received so far, in order.</summary>
        public IReadOnlyList<JObject> Seen
        {
            get { lock (_seen) return _seen.ToArray(); }
        }

        public void Write(byte[] bytes) => _stream.Write(bytes, 0, bytes.Length);

        public void Write(string text) => Write(System.Text.Encoding.UTF8.GetBytes(text));

        public void Send(JObject message) => Write(FrameEncoder.Encode(message, long.MaxValue));

        public void Request(object id, string method, JToken parameters = null)
        {
            var message = new JObject { ["jsonrpc"] = "2.0", ["id"] = JToken.FromObject(id), ["method"] = method };
            if (parameters != null) message["params"] = parameters;
            Send(message);
        }

        public void Notify(string method, JObject parameters = null)
        {
            var message = new JObject { ["jsonrpc"] = "2.0", ["method"] = method };
            if (parameters != null) message["params"] = parameters;
            Send(message);
        }

        /// <summary>Hello params proving knowledge of <paramref name="token"/> with a fresh nonce (clients never send the token).</summary>
        public static JObject HelloParams(string token, int protocolVersion = 1, string client = "raw-peer")
        {
            var nonce = HostProof.NewNonce();
            return new JObject
            {
                ["proof"] = new JObject { ["nonce"] = nonce, ["mac"] = HostProof.ClientMac(token, nonce) },
                ["protocolVersion"] = protocolVersion,
                ["client"] = new JObject { ["name"] = client },
            };
        }

        /// <summary>Says hello presenting the token itself, as clients of earlier drafts did.</summary>
        public JObject HelloWithToken(string token, object id = null)
        {
            Request(id ?? "hello", "tether/hello", new JObject { ["token"] = token, ["protocolVersion"] = 1, ["client"] = new JObject { ["name"] = "raw-peer" } });
            return ResponseTo(id ?? "hello");
        }

        /// <summary>Says hello with a proof of the token and returns the answer (result or error).</summary>
        public JObject Hello(string token, object id = null, string client = "raw-peer")
        {
            Request(id ?? "hello", "tether/hello", HelloParams(token, 1, client));
            return ResponseTo(id ?? "hello");
        }

        /// <summary>Says hello with a proof made from <paramref name="token"/> and <paramref name="nonce"/>.</summary>
        public JObject HelloWithProof(string token, string nonce, object id = null)
        {
            Request(id ?? "hello", "tether/hello", new JObject
            {
                ["proof"] = new JObject { ["nonce"] = nonce, ["mac"] = HostProof.ClientMac(token, nonce) },
                ["protocolVersion"] = 1,
                ["client"] = new JObject { ["name"] = "raw-peer" },
            });
            return ResponseTo(id ?? "hello");
        }

        /// <summary>The next message, whatever it is.</summary>
        public JObject Next(int timeoutMs = WaitMs)
        {
            using (var timeout = new CancellationTokenSource(timeoutMs))
            {
                try
                {
                    return _incoming.Reader.ReadAsync(timeout.Token).AsTask().GetAwaiter().GetResult();
                }
                catch (OperationCanceledException)
                {
                    throw new TimeoutException($"No message within {timeoutMs} ms.");
                }
                catch (ChannelClosedException)
                {
                    throw new IOException("The host closed the connection before sending another message.");
                }
            }
        }

        /// <summary>The next response with this id (other messages are skipped, and kept in Seen).</summary>
        public JObject ResponseTo(object id, int timeoutMs = WaitMs)
        {
            var key = JToken.FromObject(id);
            var deadline = DateTime.UtcNow.AddMilliseconds(timeoutMs);
            for (;;)
            {
                var left = (int)Math.Max(1, (deadline - DateTime.UtcNow).TotalMilliseconds);
                var message = Next(left);
                if (message["method"] == null && JToken.DeepEquals(message["id"], key)) return message;
            }
        }

        /// <summary>The next notification with this method (others skipped).</summary>
        public JObject NotificationOf(string method, int timeoutMs = WaitMs)
        {
            var deadline = DateTime.UtcNow.AddMilliseconds(timeoutMs);
            for (;;)
            {
                var left = (int)Math.Max(1, (deadline - DateTime.UtcNow).TotalMilliseconds);
                var message = Next(left);
                if ((string)message["method"] == method && message["id"] == null) return message;
            }
        }

        /// <summary>The next message with this method, request or notification (others skipped).</summary>
        public JObject NotificationOrRequest(string method, int timeoutMs = WaitMs)
        {
            var deadline = DateTime.UtcNow.AddMilliseconds(timeoutMs);
            for (;;)
            {
                var left = (int)Math.Max(1, (deadline - DateTime.UtcNow).TotalMilliseconds);
                var message = Next(left);
                if ((string)message["method"] == method) return message;
            }
        }

        /// <summary>Waits for the host to close the connection.</summary>
        public void ExpectClosed(int timeoutMs = WaitMs)
        {
            if (!_closed.Task.Wait(timeoutMs)) throw new TimeoutException($"The host did not close the connection within {timeoutMs} ms.");
        }

        public void Dispose() => _client.Dispose();

        private async Task ReadLoop()
        {
            var decoder = new FrameDecoder(new FrameLimits { MaxFrameBytes = 1L << 30, MaxHeaderBytes = 1 << 16 });
            decoder.TrustPeer();
            var buffer = new byte[64 * 1024];
            try
            {
                for (;;)
                {
                    int read = await _stream.ReadAsync(buffer, 0, buffer.Length).ConfigureAwait(false);
                    if (read == 0) break;
                    foreach (var body in decoder.Push(buffer, 0, read))
                    {
                        var message = (JObject)Messages.ParseBody(body);
                        lock (_seen) _seen.Add(message);
                        if ((string)message["method"] == "ping" && message["id"] != null && AnswerPings)
                        {
                            Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = message["id"], ["result"] = new JObject() });
                        }
                        _incoming.Writer.TryWrite(message);
                    }
                }
            }
            catch (Exception)
            {
                // Reset or disposed: closed all the same.
            }
            _incoming.Writer.TryComplete();
            _closed.TrySetResult(true);
        }
    }
}
