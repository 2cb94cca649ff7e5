using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Testing;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Testing
{
    /// <summary>
    /// What run_tests refuses before the Test Framework would open a dialog or fail to start
    /// (TestRunRules; the sandbox's test-runner.ts says the same, word for word), and a run that
    /// fails before it finishes ending its call.
    /// </summary>
    [TestFixture]
    public class TestRunRulesTests
    {
        [Test]
        public void PlayModeIsRefusedSayingHowToGetOutOfIt()
        {
            Assert.DoesNotThrow(() => TestRunRules.RequireEditMode(false));
            var error = Assert.Throws<TetherException>(() => TestRunRules.RequireEditMode(true));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Is.EqualTo(TestRunRules.PlayModeRefusal));
            Assert.That(error.Message, Does.Contain("play_mode \"exit\""));
            Assert.That((string)error.Data["tool"], Is.EqualTo("run_tests"));
        }

        [Test]
        public void UnsavedScenesAreRefusedNamingThemUnlessTheCallerSaidSave()
        {
            var loaded = new[] { ("Assets/A.unity", "A", true), ("Assets/B.unity", "B", false), ("Assets/C.unity", "C", true) };
            var error = Assert.Throws<TetherException>(() => TestRunRules.ScenesToSave("refuse", loaded));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(
                error.Message,
                Is.EqualTo("Invalid arguments for run_tests: unsavedChanges: unsaved changes in \"Assets/A.unity\", \"Assets/C.unity\": Unity's Test Runner would first ask in a dialog whether to save them, holding the editor until someone answers. Save them (save_scene), or call again with unsavedChanges \"save\"."));
            Assert.That(error.Data["scenes"].ToObject<string[]>(), Is.EqualTo(new[] { "Assets/A.unity", "Assets/C.unity" }));
            Assert.That((string)error.Data["field"], Is.EqualTo("unsavedChanges"));
            Assert.That(TestRunRules.ScenesToSave("save", loaded), Is.EqualTo(new[] { "Assets/A.unity", "Assets/C.unity" }));
            Assert.That(TestRunRules.ScenesToSave("refuse", new[] { ("Assets/B.unity", "B", false) }), Is.Empty, "nothing unsaved, nothing to ask");
        }

        [Test]
        public void AnUntitledSceneCannotBeSavedForTheRun()
        {
            var loaded = new[] { ("Assets/A.unity", "A", true), ("", "", true) };
            Assert.That(Assert.Throws<TetherException>(() => TestRunRules.ScenesToSave("refuse", loaded)).Message, Does.Contain("\"Assets/A.unity\", \"Untitled\""));
            var error = Assert.Throws<TetherException>(() => TestRunRules.ScenesToSave("save", loaded));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("the scene \"Untitled\" was never saved, so \"save\" has nowhere to save it. Save it with save_scene and saveAs"));
        }

        [Test]
        public void ARunThatFailsBeforeItFinishesEndsTheCallWaitingForIt()
        {
            string failed = null;
            var listener = new CallListener(new FakeToolContext()) { Failed = message => failed = message };
            ((ITestRunListener)listener).RunFailed("Build failed: 2 errors");
            Assert.That(failed, Is.EqualTo("Build failed: 2 errors"));
        }
    }
}
