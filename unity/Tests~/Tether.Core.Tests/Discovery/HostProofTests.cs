using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Discovery;

namespace Tether.Core.Tests.Discovery
{
    [TestFixture]
    public class HostProofTests
    {
        // Computed with Node, as src/discovery/host-proof.ts does:
        // node -e "const {createHmac}=require('node:crypto'); const mac=(t,m)=>createHmac('sha256',t).update(m).digest('base64url');
        //          console.log(mac(TOKEN,'tether/hello client '+NONCE), mac(TOKEN,'tether/hello host '+NONCE))"
        [TestCase("9qk4Qm3JcF1xWc2bqkK3Xb0QH2uZ3lQe", "3q2-7wAAAQidjF1iRhHkNLkX",
            "YsFFk00jomal3lQ4tiCimhtOz2CADGw-FL8f7mQnIeE", "e9VuUzEXVdiAB6gfz2KJFyHwJ3kBbhkusd6rEIqPClY")]
        [TestCase("tøken-ünïcode ✓", "nonce with spaces and é",
            "cnG4cVKonPXeHGm-qHaq4uDBKs1q71UJ0LKDbVFt0h0", "8f_VGEir_aNpvCy2G8wcfXd182HxHe8A_F6oEIfytRI")]
        [TestCase("", "x",
            "Bu5MnvQ__lb9W5ovPZDbpQM8iGyRev6prPRklhuzpGQ", "w6fMi_l9O2I5n83Ur8PHo4ikfw2HQV1PvB13jRdnTkY")]
        public void MacsEqualNodesVectors(string token, string nonce, string clientMac, string hostMac)
        {
            Assert.That(HostProof.ClientMac(token, nonce), Is.EqualTo(clientMac));
            Assert.That(HostProof.HostMac(token, nonce), Is.EqualTo(hostMac));
        }

        [Test]
        public void MacsEqualWhatTheTypeScriptComputesForFreshValues()
        {
            var token = HostProof.NewToken();
            var nonce = HostProof.NewNonce();
            var output = Node.Run(
                "const {createHmac}=require('node:crypto');" +
                "const mac=(t,m)=>createHmac('sha256',t).update(m).digest('base64url');" +
                "const [t,n]=process.argv.slice(1);" +
                "console.log(JSON.stringify({client:mac(t,'tether/hello client '+n),host:mac(t,'tether/hello host '+n)}))",
                token, nonce);
            var macs = JObject.Parse(output);
            Assert.That(HostProof.ClientMac(token, nonce), Is.EqualTo((string)macs["client"]));
            Assert.That(HostProof.HostMac(token, nonce), Is.EqualTo((string)macs["host"]));
        }

        [Test]
        public void ClientAndHostProofsDiffer()
        {
            Assert.That(HostProof.ClientMac("t", "n"), Is.Not.EqualTo(HostProof.HostMac("t", "n")));
        }

        [Test]
        public void TokensAre24RandomBytesInBase64Url()
        {
            var tokens = Enumerable.Range(0, 50).Select(_ => HostProof.NewToken()).ToList();
            Assert.That(tokens, Is.Unique);
            foreach (var token in tokens) Assert.That(token, Does.Match("^[A-Za-z0-9_-]{32}$"));
        }

        [Test]
        public void NoncesAre18RandomBytesInBase64Url()
        {
            var nonces = Enumerable.Range(0, 50).Select(_ => HostProof.NewNonce()).ToList();
            Assert.That(nonces, Is.Unique);
            foreach (var nonce in nonces) Assert.That(nonce, Does.Match("^[A-Za-z0-9_-]{24}$"));
        }

        [Test]
        public void Base64UrlHasNoPaddingAndUrlSafeCharacters()
        {
            Assert.That(HostProof.Base64Url(new byte[] { 0xfb, 0xff }), Is.EqualTo("-_8"));
        }

        [Test]
        public void SecretsMatchOnlyTheSameText()
        {
            Assert.That(HostProof.SecretsMatch("abc", "abc"), Is.True);
            Assert.That(HostProof.SecretsMatch("abc", "abd"), Is.False);
            Assert.That(HostProof.SecretsMatch("abc", "abcd"), Is.False);
            Assert.That(HostProof.SecretsMatch("", ""), Is.True);
            Assert.That(HostProof.SecretsMatch(null, "abc"), Is.False);
            Assert.That(HostProof.SecretsMatch("abc", null), Is.False);
            // Same UTF-8 length, different characters: compared byte by byte.
            Assert.That(HostProof.SecretsMatch("é", "è"), Is.False);
            // Same character count, different UTF-8 lengths.
            Assert.That(HostProof.SecretsMatch("ée", "éé"), Is.False);
        }
    }
}
