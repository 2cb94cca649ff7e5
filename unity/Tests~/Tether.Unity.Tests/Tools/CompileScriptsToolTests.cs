using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Compiling;
using Tether.Unity.Dispatch;
using Tether.Unity.Logs;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tests.Tools
{
    /// <summary>
    /// compile_scripts against the stand-ins' compilation events. What matters for domain
    /// reloads: the call's Task completes inside compilationFinished, on the main thread, before
    /// Unity goes on to reload, so the result reaches the host loop (and the journal) first.
    /// </summary>
    [TestFixture]
    public class CompileScriptsToolTests
    {
        private EditorServices _services;
        private RegisteredTool _tool;

        [SetUp]
        public void Editor()
        {
            UnityStandInState.Reset();
            _services = new EditorServices
            {
                MainThread = new MainThreadDispatcher(new RecordingLog(), null),
                Compiles = new CompileWatcher(),
                Console = new ConsoleCapture(new ConsoleBuffer(), null),
            };
            EditorServices.Current = _services;
            _tool = ToolFactory.FromType(typeof(CompileScriptsTool)).Single();
        }

        [TearDown]
        public void Done()
        {
            EditorServices.Current = null;
            _services.Compiles.Dispose();
            _services.Console.Dispose();
            _services.MainThread.Dispose();
        }

        private static CompilerMessage Message(string file, int line, CompilerMessageType type, string text) =>
            new CompilerMessage { file = file, line = line, column = 1, type = type, message = text };

        [Test]
        public void AnswersInsideCompilationFinishedBeforeTheReload()
        {
            var context = new FakeToolContext();
            var running = _tool.Invoke(new JObject(), context);
            Assert.That(CompilationPipeline.CompilationsRequested, Is.EqualTo(1));
            Assert.That(running.IsCompleted, Is.False);

            CompilationPipeline.RaiseCompilationStarted(new object());
            CompilationPipeline.RaiseAssemblyCompilationFinished("Library/ScriptAssemblies/Game.dll", new[] { Message("Assets/A.cs", 3, CompilerMessageType.Warning, "Assets/A.cs(3,1): warning CS0168: unused") });
            CompilationPipeline.RaiseCompilationFinished(new object());

            Assert.That(running.IsCompleted, Is.True, "completed synchronously inside Unity's callback");
            var result = _tool.ToResult(running.Result);
            Assert.That((bool)result["structuredContent"]["succeeded"], Is.True);
            Assert.That((bool)result["structuredContent"]["domainReload"], Is.True);
            Assert.That((string)result["structuredContent"]["messages"][0]["severity"], Is.EqualTo("warning"));
            Assert.That(context.ProgressMessages, Does.Contain("Compiling scripts"));
        }

        [Test]
        public void CompileErrorsFailTheCallWithEachError()
        {
            var running = _tool.Invoke(new JObject(), new FakeToolContext());
            CompilationPipeline.RaiseCompilationStarted(null);
            CompilationPipeline.RaiseAssemblyCompilationFinished("Game.dll", new[] { Message("Assets/B.cs", 7, CompilerMessageType.Error, "Assets/B.cs(7,1): error CS1002: ; expected") });
            CompilationPipeline.RaiseCompilationFinished(null);
            var result = _tool.ToResult(running.Result);
            Assert.That((bool)result["isError"], Is.True);
            Assert.That((string)result["content"][0]["text"], Does.Contain("Assets/B.cs(7,1): error CS1002"));
            Assert.That((bool)result["structuredContent"]["domainReload"], Is.False);
        }

        [Test]
        public void ACancelDoesNotEndTheCallWhileUnityCompilesAnyway()
        {
            // Unity cannot stop a compilation, nor the reload after it: "cancelled" would say the
            // new code is not loaded while it is. The call ends with what the compile did.
            var context = new FakeToolContext();
            var running = _tool.Invoke(new JObject(), context);
            CompilationPipeline.RaiseCompilationStarted(null);
            context.Cancel();
            EditorApplication.update();
            EditorApplication.update();
            Assert.That(running.IsCompleted, Is.False, "still waiting for the compilation Unity goes on with");
            CompilationPipeline.RaiseAssemblyCompilationFinished("Library/ScriptAssemblies/Game.dll", new CompilerMessage[0]);
            CompilationPipeline.RaiseCompilationFinished(null);
            Assert.That(running.Status, Is.EqualTo(TaskStatus.RanToCompletion));
            Assert.That((bool)_tool.ToResult(running.Result)["structuredContent"]["domainReload"], Is.True);
            Assert.DoesNotThrow(() => CompilationPipeline.RaiseCompilationFinished(null), "a later compilation no longer reaches the ended call");
        }

        [Test]
        public void ACancelledCallGivesUpOnACompilationThatOutlastsItsGrace()
        {
            // No call holds its place forever: past the grace, the wait ends with the cancel after all.
            var grace = MainThreadWaitLimits.UnstoppableGraceMs;
            MainThreadWaitLimits.UnstoppableGraceMs = 0;
            try
            {
                var context = new FakeToolContext();
                var running = _tool.Invoke(new JObject(), context);
                CompilationPipeline.RaiseCompilationStarted(null);
                EditorApplication.update();
                Assert.That(running.IsCompleted, Is.False, "no cancel yet: the compilation is waited for");
                context.Cancel();
                EditorApplication.update();
                EditorApplication.update();
                Assert.That(((TetherException)running.Exception.InnerException).Code, Is.EqualTo(ErrorCodes.Cancelled));
                Assert.DoesNotThrow(() => CompilationPipeline.RaiseCompilationFinished(null), "a later compilation no longer reaches the ended call");
            }
            finally
            {
                MainThreadWaitLimits.UnstoppableGraceMs = grace;
            }
        }

        [Test]
        public void WithNothingToCompileItAnswersThatTheScriptsWereUpToDate()
        {
            var running = _tool.Invoke(new JObject(), new FakeToolContext());
            CompilationPipeline.RaiseCompilationStarted(null);
            CompilationPipeline.RaiseCompilationFinished(null);
            var structured = _tool.ToResult(running.Result)["structuredContent"];
            Assert.That((bool)structured["domainReload"], Is.False);
            Assert.That((string)structured["note"], Does.Contain("up to date"));
        }
    }
}
