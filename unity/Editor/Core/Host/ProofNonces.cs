using System;
using System.Collections.Generic;

namespace Tether.Core.Host
{
    /// <summary>
    /// The nonces of the proofs a listener has taken (protocol.md §14; src/host/proof-nonces.ts):
    /// a hello whose proof was seen before is a replay, and is refused.
    /// <para>
    /// A token the embedder gave (TetherHostOptions.Token) outlives its listener (a reload builds
    /// a new TetherHost with it), and a proof sent to whatever held the port in between must not
    /// open the next listener: the nonces seen under each given token are kept for the life of the
    /// process (of the domain, in Unity: statics do not survive a domain reload). A token of the
    /// host's own is new with each listener and needs no more than the listener's memory.
    /// </para>
    /// Thread-safe: listeners of one given token may run on their loops at once (one closing, the next starting).
    /// </summary>
    internal sealed class ProofNonces
    {
        /// <summary>Proof nonces remembered per token; past it the oldest are forgotten (each is 144 random bits).</summary>
        internal const int MaxRemembered = 65_536;

        private static readonly Dictionary<string, ProofNonces> OfGivenTokens = new Dictionary<string, ProofNonces>(StringComparer.Ordinal);

        private readonly HashSet<string> _used = new HashSet<string>(StringComparer.Ordinal);
        private readonly Queue<string> _order = new Queue<string>();

        private ProofNonces()
        {
        }

        /// <summary>The memory for a listener: the one shared by every listener of <paramref name="givenToken"/>, or a new one when the token is the host's own (null).</summary>
        public static ProofNonces For(string givenToken)
        {
            if (givenToken == null) return new ProofNonces();
            lock (OfGivenTokens)
            {
                if (!OfGivenTokens.TryGetValue(givenToken, out var nonces)) OfGivenTokens[givenToken] = nonces = new ProofNonces();
                return nonces;
            }
        }

        /// <summary>True the first time a client's proof nonce is seen: a replayed hello is refused.</summary>
        public bool FirstUseOf(string nonce)
        {
            lock (_used)
            {
                if (!_used.Add(nonce)) return false;
                _order.Enqueue(nonce);
                if (_order.Count > MaxRemembered) _used.Remove(_order.Dequeue());
                return true;
            }
        }
    }
}
