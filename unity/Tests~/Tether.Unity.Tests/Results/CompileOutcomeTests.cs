using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tools;
using Tether.Unity.Compiling;

namespace Tether.Unity.Tests.Results
{
    [TestFixture]
    public class CompileOutcomeTests
    {
        [Test]
        public void ASuccessfulCompileAnnouncesTheReload()
        {
            var outcome = new CompileOutcome();
            outcome.AddAssembly(new[] { new CompileMessage("Assets/A.cs", 4, 9, "warning", "Assets/A.cs(4,9): warning CS0168: unused") });
            var json = (JObject)outcome.Answer();
            Assert.That((bool)json["succeeded"], Is.True);
            Assert.That((bool)json["domainReload"], Is.True);
            Assert.That(json["errors"], Is.Empty);
            var message = json["messages"].Single();
            Assert.That((string)message["file"], Is.EqualTo("Assets/A.cs"));
            Assert.That((int)message["line"], Is.EqualTo(4));
            Assert.That((int)message["column"], Is.EqualTo(9));
            Assert.That((string)message["severity"], Is.EqualTo("warning"));
        }

        [Test]
        public void AFailedCompileIsAFailedCallListingItsErrors()
        {
            var outcome = new CompileOutcome();
            outcome.AddAssembly(new[]
            {
                new CompileMessage("Assets/B.cs", 3, 5, "error", "Assets/B.cs(3,5): error CS1002: ; expected"),
                new CompileMessage("Assets/C.cs", 7, 1, "error", "error CS0103: The name 'x' does not exist"),
            });
            var result = ToolResults.From(outcome.Answer(), "compile_scripts");
            Assert.That((bool)result["isError"], Is.True);
            var text = (string)result["content"][0]["text"];
            Assert.That(text, Does.StartWith("Compilation failed with 2 error(s); the editor kept its previous scripts."));
            Assert.That(text, Does.Contain("Assets/B.cs(3,5): error CS1002: ; expected"));
            Assert.That(text, Does.Contain("Assets/C.cs(7,1): error CS0103: The name 'x' does not exist"), "a message without its place gets one, its severity once");
            Assert.That((bool)result["structuredContent"]["succeeded"], Is.False);
            Assert.That((bool)result["structuredContent"]["domainReload"], Is.False);
        }

        [TestCase("Assets/B.cs", "error", "Assets/B.cs(3,5): error CS1002: ; expected", "CS1002: ; expected")]
        [TestCase("Assets/B.cs", "warning", "warning CS0168: unused", "CS0168: unused")]
        [TestCase("Assets/B.cs", "error", "CS0246: type not found", "CS0246: type not found")]
        [TestCase("", "error", "error CS2001: Source file not found", "CS2001: Source file not found")]
        public void MessagesKeepTheCodeAndTextWithoutThePlaceOrSeverity(string file, string severity, string unity, string plain)
        {
            var message = new CompileMessage(file, 3, 5, severity, unity);
            Assert.That(message.Message, Is.EqualTo(plain));
            Assert.That(message.Text, Is.EqualTo(file.Length == 0 ? severity + " " + plain : file + "(3,5): " + severity + " " + plain));
        }

        [Test]
        public void NothingToCompileMeansNoReload()
        {
            var json = (JObject)new CompileOutcome { UpToDate = true }.Answer();
            Assert.That((bool)json["succeeded"], Is.True);
            Assert.That((bool)json["domainReload"], Is.False);
            Assert.That((string)json["note"], Does.Contain("up to date"));
        }

        [Test]
        public void NothingCompiledInPlayModeIsNotSaidUpToDate()
        {
            // Unity may put the compile off until play mode ends: only leaving it tells.
            var json = (JObject)new CompileOutcome { PutOffInPlayMode = true }.Answer();
            Assert.That((bool)json["domainReload"], Is.False);
            Assert.That((string)json["note"], Is.EqualTo(CompileOutcome.PutOffNote));
            Assert.That((string)json["note"], Does.Not.Contain("were up to date"));
            Assert.That((string)json["note"], Does.Contain("Exit play mode (play_mode \"exit\"), then compile_scripts"));
        }
    }
}
