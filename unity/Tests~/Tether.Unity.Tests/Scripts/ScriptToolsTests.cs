using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Compiling;
using Tether.Unity.Dispatch;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tests.Scripts
{
    /// <summary>
    /// create_script and edit_script refuse bad input before writing anything (the sandbox's
    /// cases), and a compile that fails fails the call with the messages in its data (CompileWait).
    /// What Unity does once the file is imported is left to a real editor.
    /// </summary>
    [TestFixture]
    public class ScriptToolsTests
    {
        private EditorServices _services;
        private string _root;

        [SetUp]
        public void Editor()
        {
            UnityStandInState.Reset();
            _root = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), "tether-script-tools-" + TestContext.CurrentContext.Test.ID)).FullName;
            Directory.CreateDirectory(Path.Combine(_root, "Assets", "Scripts"));
            File.WriteAllText(Path.Combine(_root, "Assets", "Scripts", "Player.cs"), "public class Player\n{\n    void Start()\n    {\n    }\n\n    void Update()\n    {\n    }\n}\n");
            _services = new EditorServices { ProjectRoot = _root, MainThread = new MainThreadDispatcher(new RecordingLog(), null), Compiles = new CompileWatcher() };
            EditorServices.Current = _services;
        }

        [TearDown]
        public void Done()
        {
            EditorServices.Current = null;
            _services.Compiles.Dispose();
            _services.MainThread.Dispose();
            Directory.Delete(_root, true);
        }

        private static RegisteredTool Tool(string name) => ToolFactory.FromType(typeof(ScriptTools)).Single(t => t.Name == name);

        private static TetherException Refused(string tool, object args, string code)
        {
            var running = Tool(tool).Invoke(JObject.FromObject(args), new FakeToolContext());
            Assert.That(running.IsFaulted, Is.True, tool + " " + JObject.FromObject(args));
            var error = (TetherException)running.Exception.InnerException;
            Assert.That(error.Code, Is.EqualTo(code), error.Message);
            return error;
        }

        [Test]
        public void CreateScriptRefusesBeforeWritingAnything()
        {
            Assert.That(Refused("create_script", new { path = "Assets/Scripts/Player.cs" }, ErrorCodes.InvalidArguments).Message, Does.Contain("already exists"));
            Assert.That(Refused("create_script", new { path = "../Outside.cs" }, ErrorCodes.PathOutsideProject).Message, Does.Contain("outside the project"));
            Assert.That(Refused("create_script", new { path = "Assets/A.cs", contents = "", template = "class" }, ErrorCodes.InvalidArguments).Message, Does.Contain("template"));
            Assert.That(Refused("create_script", new { path = "Assets/A.cs", className = "B" }, ErrorCodes.InvalidArguments).Message, Does.Contain("name the file \"B.cs\""));
            Assert.That(Refused("create_script", new { path = "Assets/1st.cs" }, ErrorCodes.InvalidArguments).Message, Does.Contain("\"1st\" is not a C# identifier"));
            Assert.That(Refused("create_script", new { path = "Assets/A.cs", @namespace = "Game..AI" }, ErrorCodes.InvalidArguments).Data["field"].ToString(), Is.EqualTo("namespace"));
            Assert.That(File.Exists(Path.Combine(_root, "Assets", "A.cs")), Is.False);
        }

        [Test]
        public void CreateScriptRefusesAnEditorWindowOutsideAnEditorFolder()
        {
            var error = Refused("create_script", new { path = "Assets/Scripts/MyWindow.cs", template = "EditorWindow" }, ErrorCodes.InvalidArguments);
            Assert.That(error.Message, Does.Contain("\"Assets/Editor/MyWindow.cs\""));
            Assert.That(File.Exists(Path.Combine(_root, "Assets", "Scripts", "MyWindow.cs")), Is.False);
        }

        [Test]
        public void EditScriptRefusesStaleUnclearOrMissingEdits()
        {
            var path = "Assets/Scripts/Player.cs";
            var before = File.ReadAllText(Path.Combine(_root, path));
            Assert.That(Refused("edit_script", new { path = "Assets/Scripts/Playr.cs", contents = "" }, ErrorCodes.NotFound).Message, Does.Contain("Did you mean \"Assets/Scripts/Player.cs\""));
            Assert.That(Refused("edit_script", new { path }, ErrorCodes.InvalidArguments).Message, Does.Contain("neither contents nor oldText"));
            Assert.That(Refused("edit_script", new { path, contents = "x", oldText = "y", newText = "z" }, ErrorCodes.InvalidArguments).Message, Does.Contain("both"));
            Assert.That(Refused("edit_script", new { path, oldText = "Start" }, ErrorCodes.InvalidArguments).Message, Does.Contain("newText"));
            Assert.That(Refused("edit_script", new { path, oldText = "    {\n    }", newText = "" }, ErrorCodes.InvalidArguments).Message, Does.Contain("occurs 2 times"));
            var stale = Refused("edit_script", new { path, contents = "", expectedSha256 = new string('0', 64) }, ErrorCodes.InvalidArguments);
            Assert.That((string)stale.Data["actual"], Is.EqualTo(ScriptFiles.Sha256(before)));
            Assert.That(File.ReadAllText(Path.Combine(_root, path)), Is.EqualTo(before));
        }

        [Test]
        public void AnAnswerThatThrowsFailsTheCallInsideCompilationFinished()
        {
            var running = CompileWait.Run(new FakeToolContext(), _services, CompilationPipeline.RequestScriptCompilation, outcome =>
                throw new TetherException(ErrorCodes.ToolFailed, outcome.FailureText("Assets/A.cs was written (it stays), but the scripts do not compile. "), outcome.ToJson()));
            CompilationPipeline.RaiseCompilationStarted(null);
            CompilationPipeline.RaiseAssemblyCompilationFinished("Game.dll", new[] { new CompilerMessage { file = "Assets/A.cs", line = 3, column = 14, type = CompilerMessageType.Error, message = "Assets/A.cs(3,14): error CS1002: ; expected" } });
            CompilationPipeline.RaiseCompilationFinished(null);
            Assert.That(running.IsFaulted, Is.True, "failed synchronously inside Unity's callback");
            var error = (TetherException)running.Exception.InnerException;
            Assert.That(error.Message, Does.Contain("Assets/A.cs(3,14): error CS1002: ; expected"));
            Assert.That(error.Data["messages"][0].ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("{\"file\":\"Assets/A.cs\",\"line\":3,\"column\":14,\"severity\":\"error\",\"message\":\"CS1002: ; expected\"}"));
        }
    }
}
