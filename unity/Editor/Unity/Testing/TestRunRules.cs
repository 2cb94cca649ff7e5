using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Testing
{
    /// <summary>
    /// What run_tests refuses before it asks the Test Framework for a run, decided without Unity
    /// (the sandbox's test-runner.ts says the same, word for word). The framework's first step in
    /// both modes (SaveModiedSceneTask) is EditorSceneManager.SaveCurrentModifiedScenesIfUserWantsTo:
    /// with a loaded scene that has unsaved changes it opens a modal dialog, which holds the main
    /// thread, and every call behind it, until someone answers; cancelled, the run ends without
    /// RunFinished. In play mode that step throws instead, and the run never starts. So a run is
    /// refused in play mode, and with unsaved scenes unless the caller says to save them first.
    /// </summary>
    internal static class TestRunRules
    {
        private const string Tool = "run_tests";

        public const string UnsavedDescription =
            "Loaded scenes with unsaved changes, which Unity's Test Runner would ask about in a dialog before the run: refuse (the call fails, naming them) or save them first.";

        public const string PlayModeRefusal =
            "Unity cannot run tests in play mode: the Test Runner first saves the open scenes, which play mode does not allow. Exit play mode (play_mode \"exit\"), then run the tests again.";

        /// <summary>TOOL_FAILED in play mode.</summary>
        public static void RequireEditMode(bool playing)
        {
            if (playing) throw new TetherException(ErrorCodes.ToolFailed, PlayModeRefusal, new JObject { ["tool"] = Tool });
        }

        /// <summary>
        /// The loaded scenes to save before the run (their paths): none unless some have unsaved
        /// changes and <paramref name="unsavedChanges"/> is "save". INVALID_ARGUMENTS, naming
        /// them, when it is "refuse"; and for "save" when one was never saved (it has no path).
        /// </summary>
        public static IReadOnlyList<string> ScenesToSave(string unsavedChanges, IEnumerable<(string Path, string Name, bool IsDirty)> loaded)
        {
            var dirty = loaded.Where(scene => scene.IsDirty).ToList();
            if (dirty.Count == 0) return new string[0];
            if (unsavedChanges != "save")
            {
                throw ScenePaths.UnsavedRefused(
                    Tool,
                    dirty.Select(ScenePaths.Shown).ToList(),
                    ": Unity's Test Runner would first ask in a dialog whether to save them, holding the editor until someone answers. Save them (save_scene), or call again with unsavedChanges \"save\".");
            }
            var untitled = dirty.Where(scene => scene.Path.Length == 0).Select(ScenePaths.Shown).FirstOrDefault();
            if (untitled != null)
            {
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for run_tests: unsavedChanges: the scene \"" + untitled + "\" was never saved, so \"save\" has nowhere to save it. Save it with save_scene and saveAs, then run the tests again.",
                    new JObject { ["tool"] = Tool, ["field"] = "unsavedChanges" });
            }
            return dirty.Select(scene => scene.Path).ToList();
        }

    }
}
