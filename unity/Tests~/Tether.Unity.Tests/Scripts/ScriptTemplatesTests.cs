using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Unity.Compiling;
using Tether.Unity.Tests.Support;

namespace Tether.Unity.Tests.Scripts
{
    /// <summary>create_script's templates write the sandbox's text (fixtures/script-templates.json, which test/sandbox/script-templates.test.ts holds the sandbox to).</summary>
    [TestFixture]
    public class ScriptTemplatesTests
    {
        [Test]
        public void EveryTemplateIsTheSandboxsText()
        {
            var cases = (JArray)JObject.Parse(File.ReadAllText(RepoPaths.Fixture("script-templates.json")))["cases"];
            Assert.That(cases.Select(c => (string)c["template"]).Distinct(), Is.EqualTo(ScriptTemplates.Names));
            foreach (var c in cases)
            {
                var text = ScriptTemplates.Render((string)c["template"], (string)c["className"], (string)c["namespace"]);
                Assert.That(text, Is.EqualTo((string)c["text"]), (string)c["template"] + " " + (string)c["namespace"]);
            }
        }
    }
}
