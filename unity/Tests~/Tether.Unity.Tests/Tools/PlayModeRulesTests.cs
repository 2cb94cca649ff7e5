using System;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;
using UnityEditor;

namespace Tether.Unity.Tests.Tools
{
    /// <summary>
    /// What play mode means for the scene tools, worded as the sandbox words it
    /// (src/sandbox/tools/play-mode-tool.ts): the scene-file tools are refused while playing, and
    /// an edit of a scene says that it lasts only until play mode exits.
    /// </summary>
    [TestFixture]
    public class PlayModeRulesTests
    {
        private const string LostNote = "The editor is in play mode: this change lasts only until play mode exits, when Unity puts the scene back as it was. To keep it, exit play mode (play_mode with action \"exit\") and make it again.";

        [SetUp]
        [TearDown]
        public void FreshEditor() => UnityStandInState.Reset();

        [Test]
        public void EnteringThatReloadsSaysItWasAnsweredBeforePlayModeWasSeen()
        {
            // The sandbox's play-mode-tool.ts ENTERING_NOTE, word for word.
            Assert.That(PlayModeRules.EnteringNote, Is.EqualTo("Unity answered as it left edit mode, before the domain reload that entering play mode makes: a compile error found on the way, or a project's script, can still keep it in edit mode. get_editor_state says playing once it plays."));
        }

        [TestCase("enter")]
        [TestCase("exit")]
        [TestCase("step")]
        public void AChangeUnityHasNotShownInTimeIsOfUnknownOutcomeNotFailed(string action)
        {
            var error = PlayModeRules.NotSeenWithin(action, 10);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.OutcomeUnknown));
            Assert.That(error.Message, Does.StartWith("Unity has not shown play_mode's \"" + action + "\" done within 10 s of being asked: it may still do it"));
            Assert.That(error.Message, Does.EndWith("Check get_editor_state before asking again."));
            Assert.That(JToken.DeepEquals(error.Data, new JObject { ["tool"] = "play_mode", ["action"] = action }), Is.True, error.Data.ToString());
        }

        [TestCase("open_scene", "open")]
        [TestCase("create_scene", "create")]
        [TestCase("save_scene", "save")]
        public void SceneFilesAreRefusedInPlayModeAsBuildsAre(string tool, string verb)
        {
            Assert.DoesNotThrow(() => PlayModeRules.RequireEditMode(tool, verb, playing: false));
            var error = Assert.Throws<TetherException>(() => PlayModeRules.RequireEditMode(tool, verb, playing: true));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Is.EqualTo("Unity cannot " + verb + " a scene in play mode. Exit play mode (play_mode with action \"exit\"), then " + verb + " it."));
            Assert.That(JToken.DeepEquals(error.Data, new JObject { ["tool"] = tool }), Is.True, error.Data.ToString());
        }

        [Test]
        public void TheSceneFileToolsRefuseBeforeTouchingUnityWhilePlaying()
        {
            EditorApplication.isPlaying = true;
            var calls = new (string Tool, Func<object> Call)[]
            {
                ("open_scene", () => SceneFileTools.OpenScene(new OpenSceneArgs { Path = "Assets/Scenes/Level1.unity" })),
                ("create_scene", () => SceneFileTools.CreateScene(new CreateSceneArgs { Path = "Assets/Scenes/Level2.unity" })),
                ("save_scene", () => SceneFileTools.SaveScene(new SaveSceneArgs())),
            };
            foreach (var (tool, call) in calls)
            {
                var error = Assert.Throws<TetherException>(() => call(), tool);
                Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed), tool);
                Assert.That((string)error.Data["tool"], Is.EqualTo(tool));
                Assert.That(error.Message, Does.Contain("play_mode with action \"exit\""), tool);
            }
        }

        [Test]
        public void AnEditKeptAfterPlayModeIsLeftAsItIs()
        {
            var result = new JObject { ["created"] = new JObject { ["name"] = "Crate" } };
            Assert.That(PlayModeRules.NoteEdit(result, lostOnExit: false), Is.SameAs(result));
            Assert.That(result.ContainsKey("note"), Is.False);
            Assert.That(PlayModeEdits.Noted(result), Is.SameAs(result), "in edit mode");
        }

        [Test]
        public void AnEditPlayModeThrowsAwaySaysSo()
        {
            var noted = (JObject)PlayModeRules.NoteEdit(new JObject { ["deleted"] = "/Crate", ["objectsRemoved"] = 1 }, lostOnExit: true);
            Assert.That(JToken.DeepEquals(noted, new JObject { ["deleted"] = "/Crate", ["objectsRemoved"] = 1, ["note"] = LostNote }), Is.True, noted.ToString());
        }

        [Test]
        public void TheNoteFollowsTheNoteAResultAlreadyHas()
        {
            var noted = (JObject)PlayModeRules.NoteEdit(new JObject { ["duplicated"] = new JObject(), ["note"] = "Components added to it are not copied." }, lostOnExit: true);
            Assert.That((string)noted["note"], Is.EqualTo("Components added to it are not copied. " + LostNote));
        }

        [Test]
        public void ATypedResultIsNotedAsTheHostWritesIt()
        {
            var noted = (JObject)PlayModeRules.NoteEdit(new AddedComponent { Type = "Rigidbody", Index = 2 }, lostOnExit: true);
            Assert.That(JToken.DeepEquals(noted, new JObject { ["type"] = "Rigidbody", ["index"] = 2, ["note"] = LostNote }), Is.True, noted.ToString());
        }
    }
}
