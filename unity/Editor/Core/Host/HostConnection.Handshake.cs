using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Discovery;
using Tether.Core.Protocol;

namespace Tether.Core.Host
{
    /// <summary>tether/hello (protocol.md §6): params, then the proof (never a token), then version; each failure answered, then closed.</summary>
    internal sealed partial class HostConnection
    {
        /// <summary>Where a client reads the current token, said without the user's home folder (which a message must not reveal).</summary>
        private const string RecordsLocation = "from its host record in TETHER_HOME/hosts";

        /// <summary>The hello params, as the reference's HelloParams schema reads them.</summary>
        private sealed class HelloParams
        {
            public string Token;
            public string Nonce;
            public string Mac;
            public int ProtocolVersion;
            public string ClientName;
            public string ClientVersion;
            public bool Elicitation;
            public bool Sampling;
            public long? MaxFrameBytes;
        }

        /// <summary>Handled synchronously: no later message of this connection is processed before it is decided.</summary>
        private JToken Hello(JToken raw)
        {
            if (_authenticated) throw new TetherException(ErrorCodes.InvalidRequest, "The handshake was already completed on this connection.");
            var hello = ParseHello(raw);
            var token = _core.Token;
            var name = (string)_core.Identity["name"];
            // Proofs only (protocol.md §6.1, §14): a client that sends the token itself would send
            // it as readily to whatever holds the port while the editor reloads, so it is refused
            // even when right.
            if (hello.Nonce == null)
            {
                throw CloseSoon(new TetherException(
                    ErrorCodes.Unauthorized,
                    $"Host \"{name}\" takes only a proof of its token (\"proof\" in {Methods.Hello}, protocol.md §6.1), never the token itself: upgrade the client, which should read the token {RecordsLocation} and prove it knows it."));
            }
            // The nonce is remembered only for a proof that matches: a wrong one proves nothing to replay.
            if (!HostProof.SecretsMatch(hello.Mac, HostProof.ClientMac(token, hello.Nonce)) || !_core.FirstUseOf(hello.Nonce))
            {
                throw CloseSoon(new TetherException(
                    ErrorCodes.Unauthorized,
                    $"The proof does not match the token of host \"{name}\" (or its nonce was used before). Read the current token {RecordsLocation} and connect again with a fresh nonce."));
            }
            if (!Methods.SupportedProtocolVersions.Contains(hello.ProtocolVersion))
            {
                var supported = new JArray(Methods.SupportedProtocolVersions.Select(v => (object)v).ToArray());
                throw CloseSoon(new TetherException(
                    ErrorCodes.UnsupportedVersion,
                    $"Protocol version {hello.ProtocolVersion} is not supported by this host (it speaks {string.Join(", ", Methods.SupportedProtocolVersions)}). Upgrade the older side.",
                    new JObject { ["supported"] = supported, ["requested"] = hello.ProtocolVersion }));
            }
            _handshakeTimer?.Dispose();
            _handshakeTimer = null;
            _authenticated = true;
            _canElicit = hello.Elicitation;
            _canSample = hello.Sampling;
            ClientName = hello.ClientName;
            ClientVersion = hello.ClientVersion;
            AuthenticatedAt = HostCore.NowMs();
            // Results may be as large as the client reads (a 50 MB screenshot is 67 MB of base64).
            Rpc.PeerAuthenticated(hello.MaxFrameBytes);
            RegisterMethods();
            StartPinging();
            _core.Admitted(this);
            var result = _core.HelloResult(Id);
            // The host's half: it knows the token too, so it is the editor and not whoever holds the port.
            if (hello.Nonce != null) result["proof"] = new JObject { ["mac"] = HostProof.HostMac(token, hello.Nonce) };
            return result;
        }

        private HelloParams ParseHello(JToken raw)
        {
            var reader = new ParamsReader(Methods.Hello, raw);
            var hello = new HelloParams { Token = reader.String("token", false) };
            if (reader.Object("proof", false) != null)
            {
                hello.Nonce = reader.String("proof.nonce", true, 16, 128);
                hello.Mac = reader.String("proof.mac", true);
            }
            hello.ProtocolVersion = (int)System.Math.Max(int.MinValue, System.Math.Min(int.MaxValue, reader.Integer("protocolVersion", true) ?? 0));
            if (reader.Object("client", true) != null)
            {
                hello.ClientName = reader.String("client.name", true);
                hello.ClientVersion = reader.String("client.version", false);
            }
            if (reader.Object("capabilities", false) != null)
            {
                hello.Elicitation = reader.Boolean("capabilities.elicitation", false) ?? false;
                hello.Sampling = reader.Boolean("capabilities.sampling", false) ?? false;
            }
            if (reader.Object("limits", false) != null)
            {
                hello.MaxFrameBytes = reader.Integer(
                    "limits.maxFrameBytes", true, FrameLimits.HandshakeMaxFrameBytes,
                    $"must be at least {FrameLimits.HandshakeMaxFrameBytes} (64 KiB)");
            }
            if (reader.IsValid && reader.Has("token") == reader.Has("proof")) reader.Issue("token", "give either \"token\" or \"proof\" (not both)");
            try
            {
                reader.ThrowIfInvalid();
            }
            catch (TetherException error)
            {
                throw CloseSoon(error);
            }
            return hello;
        }

        /// <summary>Answers with the error, then closes: the error frame goes out before the close.</summary>
        private TetherException CloseSoon(TetherException error)
        {
            Rpc.Refuse(error);
            return error;
        }

        private static TetherException HandshakeRequired() =>
            // Proof, not token: a client must never send the token (protocol.md §14).
            new TetherException(ErrorCodes.HandshakeRequired, $"Send \"{Methods.Hello}\", with a proof of the token in the host's record, before anything else; closing.");
    }
}
