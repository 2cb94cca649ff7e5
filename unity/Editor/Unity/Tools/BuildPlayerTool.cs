using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Builds;
using Tether.Unity.Paths;
using UnityEditor;
using UnityEditor.Build.Reporting;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class BuildPlayerArgs
    {
        [ToolArg(Enum = new[] { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" })]
        public string Target = "StandaloneLinux64";

        public bool Development = false;
    }

    /// <summary>
    /// build_player: BuildPipeline.BuildPlayer, which blocks the main thread for the whole build,
    /// as it does in Unity. The host's network side (HostLoop) is not on that thread, so pings,
    /// heartbeats, calls/status and calls/cancel are answered throughout; progress comes from
    /// Unity's per-scene callback (BuildSession), where a cancellation stops the build.
    /// </summary>
    public static class BuildPlayerTool
    {
        /// <summary>How many of the errors logged during a failed build the failure carries.</summary>
        private const int MaxErrorsReported = 20;

        [TetherTool("build_player", Title = "Build player",
            Description = "Builds a player for a target platform. Blocks the editor main thread for the whole build (minutes on real projects) and is NOT idempotent: every run produces a new build. An identical call made while one is queued or running shares that build instead of starting another.",
            ReadOnly = false, Destructive = false, Idempotent = false,
            LongRunning = true, DeadlineMs = 3600000, Duplicates = "attach")]
        public static object BuildPlayer(BuildPlayerArgs args, IToolContext context)
        {
            var services = EditorServices.Require();
            var target = args.Target;
            if (EditorApplication.isPlaying)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity cannot build a player in play mode. Exit play mode (play_mode with action \"exit\"), then build.", new JObject { ["tool"] = "build_player", ["target"] = target });
            }
            if (BuildPipeline.isBuildingPlayer)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity is already building a player. Wait for that build to finish, then build again.", new JObject { ["tool"] = "build_player", ["target"] = target });
            }
            var scenes = EditorBuildSettings.scenes.Where(scene => scene.enabled).Select(scene => scene.path).ToArray();
            var location = BuildPaths.Location(target, Application.productName);
            var fullLocation = ProjectPaths.ResolveInside(services.ProjectRoot, location);
            var outputFolder = ProjectPaths.ResolveInside(services.ProjectRoot, BuildPaths.OutputFolder(target));
            Directory.CreateDirectory(outputFolder);
            var options = new BuildPlayerOptions
            {
                // Empty: Unity builds the scene that is open, as its Build Settings window does.
                scenes = scenes,
                locationPathName = fullLocation,
                target = (BuildTarget)Enum.Parse(typeof(BuildTarget), target),
                options = args.Development ? BuildOptions.Development : BuildOptions.None,
            };

            var errors = new List<string>();
            Application.LogCallback collect = (condition, stackTrace, type) =>
            {
                if (type != LogType.Error && type != LogType.Exception) return;
                lock (errors)
                {
                    if (errors.Count < MaxErrorsReported) errors.Add(condition);
                }
            };
            var startedAt = DateTime.UtcNow;
            context.Progress(0, Math.Max(1, scenes.Length), "Building " + target);
            BuildReport report;
            bool cancelled;
            Application.logMessageReceivedThreaded += collect;
            using (var session = new BuildSession(context, target, scenes.Length))
            {
                try
                {
                    report = BuildPipeline.BuildPlayer(options);
                }
                finally
                {
                    Application.logMessageReceivedThreaded -= collect;
                }
                cancelled = session.Cancelled;
            }
            var finishedAt = DateTime.UtcNow;
            var summary = report.summary;
            if (cancelled || summary.result == BuildResult.Cancelled)
            {
                throw new TetherException(
                    ErrorCodes.Cancelled,
                    "The " + target + " build was cancelled after it started; no player was produced.",
                    new JObject { ["target"] = target, ["started"] = true });
            }
            if (summary.result != BuildResult.Succeeded)
            {
                string[] logged;
                lock (errors) logged = errors.ToArray();
                throw new TetherException(
                    ErrorCodes.ToolFailed,
                    "The " + target + " build failed with " + summary.totalErrors + " error(s)" + (logged.Length > 0 ? ":\n" + string.Join("\n", logged) : ". Unity's console says why."),
                    new JObject
                    {
                        ["tool"] = "build_player",
                        ["target"] = target,
                        ["result"] = summary.result.ToString(),
                        ["totalErrors"] = summary.totalErrors,
                        ["errors"] = new JArray(logged),
                    });
            }
            return new JObject
            {
                ["status"] = "succeeded",
                ["target"] = target,
                ["development"] = args.Development,
                ["outputPath"] = BuildPaths.OutputFolder(target),
                ["location"] = location,
                ["startedAt"] = Iso(startedAt),
                ["finishedAt"] = Iso(finishedAt),
                ["durationMs"] = (long)summary.totalTime.TotalMilliseconds,
                ["totalSize"] = (long)summary.totalSize,
                ["totalWarnings"] = summary.totalWarnings,
            };
        }

        private static string Iso(DateTime utc) => utc.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
    }
}
