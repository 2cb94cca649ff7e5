using System;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Dispatch;
using UnityEditor;

namespace Tether.Unity.Tools
{
    public sealed class PlayModeArgs
    {
        [ToolArg(Required = true, Enum = new[] { "enter", "exit" })]
        public string Action;
    }

    /// <summary>
    /// play_mode: enters or exits play mode and answers once Unity has done it. Entering reloads
    /// the domain unless the project's Enter Play Mode Options turn that off: then the answer is
    /// given as Unity leaves edit mode, before the reload, and the client collects it after
    /// (protocol.md §9); without a reload it is given once play mode is entered.
    /// </summary>
    public static class PlayModeTool
    {
        /// <summary>Unity changes mode within a few ticks; nothing by then means it refused (compile errors, a modal dialog).</summary>
        private const long ChangeWithinMs = 10000;

        [TetherTool("play_mode", Title = "Enter or exit play mode",
            Description = "Enters or exits play mode. Entering reloads the code domain, as in Unity, unless the project's Enter Play Mode Options turn domain reload off.",
            ReadOnly = false, Destructive = false, Idempotent = true)]
        public static Task<object> PlayMode(PlayModeArgs args, IToolContext context)
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
            var wait = new MainThreadWait<object>(context, services.MainThread, () => EditorApplication.playModeStateChanged -= onChange);
            onChange = change =>
            {
                if (enter && change == (reloads ? PlayModeStateChange.ExitingEditMode : PlayModeStateChange.EnteredPlayMode))
                {
                    var answer = new JObject { ["playing"] = true, ["changed"] = true, ["domainReload"] = reloads };
                    wait.Complete(answer);
                }
                else if (!enter && change == PlayModeStateChange.EnteredEditMode)
                {
                    wait.Complete(new JObject { ["playing"] = false, ["changed"] = true });
                }
            };
            EditorApplication.playModeStateChanged += onChange;
            wait.EveryTick(() =>
            {
                if (wait.ElapsedMs <= ChangeWithinMs) return;
                wait.Fail(new TetherException(
                    ErrorCodes.ToolFailed,
                    "Unity did not " + (enter ? "enter" : "exit") + " play mode within " + ChangeWithinMs / 1000 + " s; read_console may say why.",
                    new JObject { ["tool"] = "play_mode", ["action"] = args.Action }));
            });
            if (enter) EditorApplication.EnterPlaymode();
            else EditorApplication.ExitPlaymode();
            return wait.Task;
        }

        /// <summary>Whether entering play mode reloads the domain (Unity's default, unless Enter Play Mode Options disable it).</summary>
        private static bool ReloadsOnEnter() =>
            !(EditorSettings.enterPlayModeOptionsEnabled && (EditorSettings.enterPlayModeOptions & EnterPlayModeOptions.DisableDomainReload) != 0);
    }
}
