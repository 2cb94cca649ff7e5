using System;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Dispatch;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class PlayModeArgs
    {
        [ToolArg(Required = true, Enum = new[] { "enter", "exit", "pause", "resume", "step" })]
        public string Action;
    }

    public sealed class PlayModeResult
    {
        public bool Playing;

        [ToolArg("False when the editor already was as asked.")]
        public bool Changed;

        [ToolArg("After pause, resume and step.")]
        public bool? Paused;

        [ToolArg("The game's frame count (Time.frameCount), after pause, resume and step.")]
        public int? Frame;

        [ToolArg("Entering reloaded the code domain; the answer arrived after the reload.")]
        public bool? DomainReload;

        [ToolArg("When the answer came before Unity had shown the change done: what may still undo it.")]
        public string Note;
    }

    /// <summary>
    /// play_mode: enters or exits play mode and answers once Unity has done it. Entering reloads
    /// the domain unless the project's Enter Play Mode Options turn that off: then the answer is
    /// given as Unity leaves edit mode, before the reload, and the client collects it after
    /// (protocol.md §9); without a reload it is given once play mode is entered. While playing,
    /// pause and resume set EditorApplication.isPaused and answer once Unity reports it so;
    /// step calls EditorApplication.Step (which pauses) and answers once Time.frameCount moved.
    /// </summary>
    public static class PlayModeTool
    {
        /// <summary>Unity changes mode within a few ticks; nothing by then means it refused (a modal dialog, a project's script) or waits (a compile, an import): the outcome is unknown.</summary>
        private const long ChangeWithinMs = 10000;

        [TetherTool("play_mode", Title = "Enter or exit play mode",
            Description = "Enters or exits play mode. Entering reloads the code domain, as in Unity, unless the project's Enter Play Mode Options turn domain reload off. While playing, \"pause\" and \"resume\" pause and resume the game and \"step\" plays one frame and stays paused (the toolbar's Pause and Step). Each action answers once the editor has done it.",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(PlayModeResult))]
        public static Task<object> PlayMode(PlayModeArgs args, IToolContext context)
        {
            return args.Action == "enter" || args.Action == "exit" ? EnterOrExit(args, context) : PauseOrStep(args.Action, context);
        }

        private static Task<object> EnterOrExit(PlayModeArgs args, IToolContext context)
        {
            var services = EditorServices.Require();
            var enter = args.Action == "enter";
            if (EditorApplication.isPlaying == enter)
            {
                return Task.FromResult<object>(new JObject { ["playing"] = enter, ["changed"] = false });
            }
            if (enter && EditorUtility.scriptCompilationFailed)
            {
                throw new TetherException(
                    ErrorCodes.ToolFailed,
                    "Unity cannot enter play mode while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.",
                    new JObject { ["tool"] = "play_mode", ["action"] = args.Action });
            }
            var reloads = enter && ReloadsOnEnter();
            Action<PlayModeStateChange> onChange = null;
            // Once asked, Unity enters (or leaves) play mode whatever the call does: it ends with what Unity did.
            var wait = new MainThreadWait<object>(context, services.MainThread, () => EditorApplication.playModeStateChanged -= onChange, stoppable: false);
            onChange = change =>
            {
                if (enter && change == (reloads ? PlayModeStateChange.ExitingEditMode : PlayModeStateChange.EnteredPlayMode))
                {
                    var answer = new JObject { ["playing"] = true, ["changed"] = true, ["domainReload"] = reloads };
                    // Answered before the reload it cannot outlive, so before Unity has shown play mode entered.
                    if (reloads) answer["note"] = PlayModeRules.EnteringNote;
                    wait.Complete(answer);
                }
                else if (!enter && change == PlayModeStateChange.EnteredEditMode)
                {
                    wait.Complete(new JObject { ["playing"] = false, ["changed"] = true });
                }
            };
            EditorApplication.playModeStateChanged += onChange;
            FailAfterLimit(wait, args.Action);
            if (enter) EditorApplication.EnterPlaymode();
            else EditorApplication.ExitPlaymode();
            return wait.Task;
        }

        /// <summary>pause, resume or step: only in play mode; each answers on the first editor tick that shows it done.</summary>
        private static Task<object> PauseOrStep(string action, IToolContext context)
        {
            PlayModeRules.RequirePlaying(action, EditorApplication.isPlaying);
            var services = EditorServices.Require();
            var before = Time.frameCount;
            var pausing = action != "resume";
            if (action != "step" && EditorApplication.isPaused == pausing)
            {
                return Task.FromResult<object>(Answer(pausing, changed: false));
            }
            // The pause or step is asked for below, at once: the wait only sees it done.
            var wait = new MainThreadWait<object>(context, services.MainThread, null, stoppable: false);
            wait.EveryTick(() =>
            {
                if (EditorApplication.isPaused == pausing && (action != "step" || Time.frameCount > before))
                {
                    wait.Complete(Answer(pausing, changed: true));
                }
                else if (wait.ElapsedMs > ChangeWithinMs)
                {
                    wait.Fail(PlayModeRules.NotSeenWithin(action, ChangeWithinMs / 1000));
                }
            });
            if (action == "step") EditorApplication.Step();
            else EditorApplication.isPaused = pausing;
            return wait.Task;
        }

        private static JObject Answer(bool paused, bool changed) =>
            new JObject { ["playing"] = true, ["paused"] = paused, ["changed"] = changed, ["frame"] = Time.frameCount };

        private static void FailAfterLimit(MainThreadWait<object> wait, string action)
        {
            wait.EveryTick(() =>
            {
                if (wait.ElapsedMs <= ChangeWithinMs) return;
                wait.Fail(PlayModeRules.NotSeenWithin(action, ChangeWithinMs / 1000));
            });
        }

        /// <summary>Whether entering play mode reloads the domain (Unity's default, unless Enter Play Mode Options disable it).</summary>
        internal static bool ReloadsOnEnter() =>
            !(EditorSettings.enterPlayModeOptionsEnabled && (EditorSettings.enterPlayModeOptions & EnterPlayModeOptions.DisableDomainReload) != 0);
    }

    /// <summary>
    /// What play_mode refuses, and what play mode means for the scene tools, as the sandbox words
    /// it (src/sandbox/tools/play-mode-tool.ts).
    /// </summary>
    internal static class PlayModeRules
    {
        /// <summary>
        /// What an edit of a scene made in play mode says in its result: Unity puts the scenes back
        /// as they were when play mode exits, so the edit is lost then.
        /// </summary>
        public const string EnteringNote = "Unity answered as it left edit mode, before the domain reload that entering play mode makes: a compile error found on the way, or a project's script, can still keep it in edit mode. get_editor_state says playing once it plays.";

        public const string EditLostNote = "The editor is in play mode: this change lasts only until play mode exits, when Unity puts the scene back as it was. To keep it, exit play mode (play_mode with action \"exit\") and make it again.";

        /// <summary>
        /// What a play_mode action ends with when Unity has not shown it done within its time: its
        /// outcome is unknown, not failed. Asked once, Unity goes on to do it when it can (entering
        /// waits for a compile or an import under way), or has refused it (a modal dialog, a
        /// project's script); only the editor's state now says which.
        /// </summary>
        public static TetherException NotSeenWithin(string action, long seconds) =>
            new TetherException(
                ErrorCodes.OutcomeUnknown,
                "Unity has not shown play_mode's \"" + action + "\" done within " + seconds + " s of being asked: it may still do it (once a compile or an import it waits for ends), or may have refused (read_console may say why). Check get_editor_state before asking again.",
                new JObject { ["tool"] = "play_mode", ["action"] = action });

        public static void RequirePlaying(string action, bool playing)
        {
            if (playing) return;
            var problem = "\"" + action + "\" needs play mode, and the editor is in edit mode";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for play_mode: action: " + problem + ". Enter it first (action \"enter\").",
                new JObject { ["tool"] = "play_mode", ["field"] = "action", ["problem"] = problem });
        }

        /// <summary>
        /// Refuses a scene-file tool in play mode: EditorSceneManager opens, creates and saves
        /// scenes in edit mode only (in play mode it throws InvalidOperationException). TOOL_FAILED
        /// (data: tool), as build_player refuses play mode. <paramref name="verb"/>: "open", "create", "save".
        /// </summary>
        public static void RequireEditMode(string tool, string verb, bool playing)
        {
            if (!playing) return;
            throw new TetherException(
                ErrorCodes.ToolFailed,
                "Unity cannot " + verb + " a scene in play mode. Exit play mode (play_mode with action \"exit\"), then " + verb + " it.",
                new JObject { ["tool"] = tool });
        }

        /// <summary>
        /// The result of an edit, with <see cref="EditLostNote"/> in its "note" (after the note it
        /// already has) when play mode will throw the edit away; else the result as it is.
        /// </summary>
        public static object NoteEdit(object result, bool lostOnExit)
        {
            if (!lostOnExit || !(ToolJson.FromObject(result) is JObject json)) return result;
            var note = json["note"];
            json["note"] = note != null && note.Type == JTokenType.String ? (string)note + " " + EditLostNote : EditLostNote;
            return json;
        }
    }
}
