using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Journal;

namespace Tether.Core.Tests.Journal
{
    [TestFixture]
    public class CanonicalJsonTests
    {
        [Test]
        public void SortsKeysAtEveryDepthWithoutWhitespace()
        {
            var value = JObject.Parse("{\"b\": 1, \"a\": {\"z\": [ {\"y\": true, \"x\": null} ], \"c\": \"t\"}}");
            Assert.That(CanonicalJson.Of(value), Is.EqualTo("{\"a\":{\"c\":\"t\",\"z\":[{\"x\":null,\"y\":true}]},\"b\":1}"));
        }

        [Test]
        public void ComparesNumbersByValueAndIgnoresKeyOrderButNotArrayOrder()
        {
            Assert.That(CanonicalJson.Equal(JObject.Parse("{\"n\": 1, \"m\": 2.50}"), JObject.Parse("{\"m\": 2.5, \"n\": 1.0}")), Is.True);
            Assert.That(CanonicalJson.Equal(JObject.Parse("{\"n\": 1}"), JObject.Parse("{\"n\": 1.5}")), Is.False);
            Assert.That(CanonicalJson.Equal(JArray.Parse("[1, 2]"), JArray.Parse("[2, 1]")), Is.False);
        }

        [Test]
        public void SortsKeysByCodeUnitsAsJavaScriptDoes()
        {
            // Ordinal, not culture: "B" (0x42) before "a" (0x61), "é" after "z".
            Assert.That(CanonicalJson.Of(JObject.Parse("{\"é\":1,\"a\":2,\"B\":3,\"z\":4}")), Is.EqualTo("{\"B\":3,\"a\":2,\"z\":4,\"é\":1}"));
        }

        [Test]
        public void GivesTheDigestTheTypeScriptHostStores()
        {
            // Pinned in test/host/call-journal.test.ts: sha256 of tool, NUL, canonical JSON, first 32 hex digits.
            var args = JObject.Parse("{\"name\":\"Player\",\"at\":{\"y\":1,\"x\":0}}");
            Assert.That(CanonicalJson.Fingerprint("create_gameobject", args), Is.EqualTo("3ea5d4d40e77ca50212deea12ba42153"));
            Assert.That(CanonicalJson.Fingerprint("other_tool", args), Is.Not.EqualTo("3ea5d4d40e77ca50212deea12ba42153"));
            Assert.That(CanonicalJson.Fingerprint("t", null), Is.EqualTo(CanonicalJson.Fingerprint("t", new JObject())));
        }

        [Test]
        public void RefusesValuesNestedTooDeeplyToWalk()
        {
            JToken deep = new JArray();
            for (var i = 0; i < CanonicalJson.MaxDepth + 5; i++) deep = new JArray(deep);
            Assert.Throws<JsonTooDeepException>(() => CanonicalJson.Of(deep));
            JToken fine = new JArray();
            for (var i = 0; i < 100; i++) fine = new JArray(fine);
            Assert.That(CanonicalJson.Of(fine), Does.StartWith(string.Concat(Enumerable.Repeat("[", 101))));
        }
    }
}
