using System;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;
using System.Text;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// Tokens and the proof handshake (src/discovery/host-proof.ts, protocol.md §6, §14): client
    /// and host each show they know the host's token without sending it. A host whose record says
    /// "auth": "proof" takes a client's proof in place of the token and answers with a proof of
    /// its own, so a program that took the host's port while the editor reloaded learns nothing
    /// secret and cannot pass for the editor. Each proof is an HMAC-SHA256 of the client's fresh
    /// nonce under the token, labelled by side, so neither can be replayed as the other.
    /// </summary>
    public static class HostProof
    {
        /// <summary>A new host token: 24 random bytes (192 bits), base64url.</summary>
        public static string NewToken() => RandomBase64Url(24);

        /// <summary>A new nonce: 18 random bytes (144 bits), base64url, more than any client will ever repeat.</summary>
        public static string NewNonce() => RandomBase64Url(18);

        /// <summary>The client's proof: base64url HMAC-SHA256, keyed with the token's UTF-8, of "tether/hello client &lt;nonce&gt;".</summary>
        public static string ClientMac(string token, string nonce) => Mac(token, "tether/hello client " + nonce);

        /// <summary>The host's answer: base64url HMAC-SHA256, keyed with the token's UTF-8, of "tether/hello host &lt;nonce&gt;".</summary>
        public static string HostMac(string token, string nonce) => Mac(token, "tether/hello host " + nonce);

        /// <summary>
        /// Compares a presented secret or proof with the expected one in constant time: the
        /// UTF-8 lengths first (which leaks only the length), then every byte, whatever differs.
        /// </summary>
        public static bool SecretsMatch(string presented, string expected)
        {
            if (presented == null || expected == null) return false;
            var a = Encoding.UTF8.GetBytes(presented);
            var b = Encoding.UTF8.GetBytes(expected);
            return a.Length == b.Length && FixedTimeEquals(a, b);
        }

        /// <summary>base64url without padding, as Node's Buffer.toString("base64url").</summary>
        public static string Base64Url(byte[] bytes) =>
            Convert.ToBase64String(bytes).TrimEnd('=').Replace('+', '-').Replace('/', '_');

        // Not inlined or optimized, so the loop is not cut short once a difference is known
        // (CryptographicOperations.FixedTimeEquals, which does this, is not in every Unity profile).
        [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.NoOptimization)]
        private static bool FixedTimeEquals(byte[] a, byte[] b)
        {
            var difference = 0;
            for (var i = 0; i < a.Length; i++) difference |= a[i] ^ b[i];
            return difference == 0;
        }

        private static string Mac(string token, string message)
        {
            using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(token ?? throw new ArgumentNullException(nameof(token)))))
            {
                return Base64Url(hmac.ComputeHash(Encoding.UTF8.GetBytes(message)));
            }
        }

        private static string RandomBase64Url(int bytes)
        {
            var buffer = new byte[bytes];
            using (var random = RandomNumberGenerator.Create()) random.GetBytes(buffer);
            return Base64Url(buffer);
        }
    }
}
