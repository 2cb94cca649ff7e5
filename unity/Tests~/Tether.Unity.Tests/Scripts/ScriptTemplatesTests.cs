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

        [Test]
        public void OnlyTheTemplatesUsingUnityEditorAreEditorOnly()
        {
            foreach (var template in ScriptTemplates.Names)
            {
                Assert.That(ScriptTemplates.IsEditorOnly(template), Is.EqualTo(ScriptTemplates.Render(template, "T").Contains("using UnityEditor;")), template);
            }
            Assert.That(ScriptTemplates.IsEditorOnly("EditorWindow"), Is.True);
        }

        [TestCase("Assets/Editor/MyWindow.cs", true)]
        [TestCase("Assets/Tools/Editor/MyWindow.cs", true)]
        [TestCase("Assets/Tools/Editor/Windows/MyWindow.cs", true)]
        [TestCase("Assets/Tools/editor/MyWindow.cs", true)]
        [TestCase("Assets/Plugins/EDITOR/MyWindow.cs", true)]
        [TestCase("Assets/MyWindow.cs", false)]
        [TestCase("Assets/Tools/MyWindow.cs", false)]
        [TestCase("Assets/Editor.cs", false)]
        [TestCase("Assets/Editors/MyWindow.cs", false)]
        [TestCase("Assets/MyEditor/MyWindow.cs", false)]
        public void AnEditorFolderIsAnyFolderNamedEditor(string path, bool expected)
        {
            Assert.That(ScriptTemplates.InEditorFolder(path), Is.EqualTo(expected));
        }

        [Test]
        public void AnEditorWindowOutsideAnEditorFolderIsRefusedWithAPathThatWorks()
        {
            var error = Assert.Throws<Tether.Core.Protocol.TetherException>(() => ScriptTemplates.CheckPlacement("create_script", "EditorWindow", "Assets/Tools/MyWindow.cs"));
            Assert.That(error.Code, Is.EqualTo(Tether.Core.Protocol.ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("path"));
            Assert.That((string)error.Data["suggestion"], Is.EqualTo("Assets/Editor/MyWindow.cs"));
            Assert.That(error.Message, Does.Contain("\"Assets/Editor/MyWindow.cs\"").And.Contain("UnityEditor"));
            Assert.DoesNotThrow(() => ScriptTemplates.CheckPlacement("create_script", "EditorWindow", "Assets/Tools/Editor/MyWindow.cs"));
            foreach (var template in new[] { "MonoBehaviour", "ScriptableObject", "class" })
            {
                Assert.DoesNotThrow(() => ScriptTemplates.CheckPlacement("create_script", template, "Assets/Tools/MyWindow.cs"), template);
            }
        }
    }
}
