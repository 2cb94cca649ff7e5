using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Compiling;

namespace Tether.Unity.Tests.Scripts
{
    /// <summary>Script paths, hashes and checked edits (ScriptFiles): the same cases as the sandbox's script tools.</summary>
    [TestFixture]
    public class ScriptFilesTests
    {
        private string _root;

        [SetUp]
        public void Project() => _root = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), "tether-scripts-" + TestContext.CurrentContext.Test.ID)).FullName;

        [TearDown]
        public void Done() => Directory.Delete(_root, true);

        private static TetherException Throws(TestDelegate action)
        {
            var error = Assert.Throws<TetherException>(action);
            return error;
        }

        [Test]
        public void PathsAreCsFilesUnderAssets()
        {
            Assert.That(ScriptFiles.Normalize(_root, "Assets\\Scripts\\Player.cs", "create_script"), Is.EqualTo("Assets/Scripts/Player.cs"));
            Assert.That(ScriptFiles.Normalize(_root, Path.Combine(_root, "Assets", "A.cs"), "create_script"), Is.EqualTo("Assets/A.cs"));
            Assert.That(Throws(() => ScriptFiles.Normalize(_root, "../Outside.cs", "create_script")).Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
            var notAssets = Throws(() => ScriptFiles.Normalize(_root, "Scripts/A.cs", "create_script"));
            Assert.That(notAssets.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(notAssets.Message, Does.Contain("not under Assets/"));
            Assert.That((string)notAssets.Data["field"], Is.EqualTo("path"));
            Assert.That(Throws(() => ScriptFiles.Normalize(_root, "Assets/A.txt", "edit_script")).Message, Does.Contain("not a C# file"));
            Assert.That(Throws(() => ScriptFiles.Normalize(_root, "Assets/.cs", "edit_script")).Message, Does.Contain("not a C# file"));
        }

        [Test]
        public void ClassNamesComeFromFileNamesAndMustBeIdentifiers()
        {
            Assert.That(ScriptFiles.ClassName("Assets/Scripts/Player.cs"), Is.EqualTo("Player"));
            Assert.DoesNotThrow(() => ScriptFiles.CheckIdentifier("create_script", "className", "_Enemy2", "hint"));
            Assert.That(Throws(() => ScriptFiles.CheckIdentifier("create_script", "path", "1st", "hint")).Message, Does.Contain("\"1st\" is not a C# identifier"));
            Assert.That(Throws(() => ScriptFiles.CheckIdentifier("create_script", "className", "class", "hint")).Code, Is.EqualTo(ErrorCodes.InvalidArguments));
        }

        [Test]
        public void HashesAreTheSandboxsSha256OfTheUtf8Text()
        {
            Assert.That(ScriptFiles.Sha256("public class A { }\n"), Is.EqualTo("b28bc4d71c07ee20cbe1c31c4f8f69a3af6abbd95e3262f5f082fda5819f244c"));
            var file = Path.Combine(_root, "B.cs");
            File.WriteAllBytes(file, new byte[] { 0xEF, 0xBB, 0xBF }.Concat(System.Text.Encoding.UTF8.GetBytes("class B { }\r\n")).ToArray());
            Assert.That(ScriptFiles.Sha256(ScriptFiles.Read(file)), Is.EqualTo("7ff68295eccd8acb33284b0a5c583d376bdd89d8bf3ecaeb6eaa6d049ebe454e"), "a byte order mark is part of the text");
            ScriptFiles.Write(Path.Combine(_root, "Assets", "New", "C.cs"), "class C { }");
            Assert.That(File.ReadAllBytes(Path.Combine(_root, "Assets", "New", "C.cs"))[0], Is.EqualTo((byte)'c'), "written without a byte order mark");
        }

        [Test]
        public void ACheckedEditReplacesTextThatOccursExactlyOnce()
        {
            var edit = ScriptFiles.ReplaceOnce("class A\n{\n    int x = 5\n}\n", "int x = 5\n", "int x = 5;\n", "Assets/A.cs", "edit_script");
            Assert.That(edit.Text, Is.EqualTo("class A\n{\n    int x = 5;\n}\n"));
            Assert.That(edit.Line, Is.EqualTo(3));

            var twice = Throws(() => ScriptFiles.ReplaceOnce("aaa", "aa", "b", "Assets/A.cs", "edit_script"));
            Assert.That(twice.Message, Does.Contain("it occurs 2 times in Assets/A.cs"), "overlapping places count");
            Assert.That((int)twice.Data["occurrences"], Is.EqualTo(2));
            var none = Throws(() => ScriptFiles.ReplaceOnce("class A\r\n{\r\n}", "A\n{", "B {", "Assets/A.cs", "edit_script"));
            Assert.That(none.Message, Does.Contain("occurs 0 times").And.Contain("\"\\r\\n\""));
            Assert.That((int)none.Data["occurrences"], Is.EqualTo(0));
            Assert.That(Throws(() => ScriptFiles.ReplaceOnce("x", "", "y", "Assets/A.cs", "edit_script")).Message, Does.Contain("empty"));
        }

        [Test]
        public void AMissingScriptIsNotFoundWithTheClosestNames()
        {
            var error = ScriptFiles.NoScript("edit_script", "Assets/Playr.cs", new[] { "Assets/Player.cs", "Assets/Enemy.cs" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.Contain("Did you mean \"Assets/Player.cs\""));
            Assert.That((string)error.Data["suggestions"][0], Is.EqualTo("Assets/Player.cs"));
        }
    }
}
