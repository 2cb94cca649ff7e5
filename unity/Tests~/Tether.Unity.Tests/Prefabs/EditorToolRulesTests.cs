using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Screenshots;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Prefabs
{
    /// <summary>What the editor tools refuse before they touch Unity, worded as the sandbox words it.</summary>
    [TestFixture]
    public class EditorToolRulesTests
    {
        [TestCase("scene", null)]
        [TestCase("game", null)]
        [TestCase("camera", "/Main Camera")]
        public void AScreenshotNamesACameraExactlyWhenItsViewIsCamera(string view, string camera)
        {
            Assert.DoesNotThrow(() => ScreenshotRequest.Check(view, camera));
        }

        [TestCase("camera", null, "view \"camera\" needs the camera's path")]
        [TestCase("game", "/Main Camera", "camera is only for view \"camera\" (view is \"game\")")]
        [TestCase("scene", "/Main Camera", "camera is only for view \"camera\" (view is \"scene\")")]
        public void AScreenshotRefusesAMismatchedCamera(string view, string camera, string problem)
        {
            var error = Assert.Throws<TetherException>(() => ScreenshotRequest.Check(view, camera));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("camera"));
            Assert.That((string)error.Data["problem"], Is.EqualTo(problem));
        }

        [TestCase("pause")]
        [TestCase("resume")]
        [TestCase("step")]
        public void PausingAndSteppingNeedPlayMode(string action)
        {
            Assert.DoesNotThrow(() => PlayModeRules.RequirePlaying(action, playing: true));
            var error = Assert.Throws<TetherException>(() => PlayModeRules.RequirePlaying(action, playing: false));
            Assert.That(error.Message, Is.EqualTo("Invalid arguments for play_mode: action: \"" + action + "\" needs play mode, and the editor is in edit mode. Enter it first (action \"enter\")."));
        }

        [Test]
        public void FocusIsUnknownWhenTheEditorCannotTellIt()
        {
            // The stand-ins have neither EditorApplication.isFocused nor InternalEditorUtility.isApplicationActive.
            Assert.That(EditorFocus.IsFocused(), Is.Null);
        }
    }
}
