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
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEditor.Build.Reporting;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class BuildPlayerArgs
    {
        [ToolArg("Default: the active build target (get_editor_state's buildTarget).", Enum = new[] { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" })]
        public string Target;

        public bool Development = false;

        [ToolArg("The scenes to build, in order, e.g. [\"Assets/Scenes/Main.unity\"]. Default: the enabled scenes of the Build Settings.")]
        public List<string> Scenes;

        [ToolArg("The folder to write the player to, inside the project (default \"Builds/<target>\"); not Assets/, Library/ or another folder the editor owns.")]
        public string OutputPath;

        [ToolArg("Allow an outputPath outside the project (an absolute path you were given): the build replaces what is there.")]
        public bool AllowOutsideProject = false;

        [ToolArg("More BuildOptions, by name.", Enum = new[] { "AllowDebugging", "ConnectWithProfiler", "StrictMode", "CleanBuildCache", "DetailedBuildReport", "CompressWithLz4", "CompressWithLz4HC" })]
        public List<string> Options;
    }

    /// <summary>build_player's result: the build report's summary (the sandbox's buildSummary).</summary>
    public sealed class BuildPlayerResult
    {
        [ToolArg("\"succeeded\".", Required = true)]
        public string Status;

        [ToolArg("The build report's result: \"Succeeded\".", Required = true)]
        public string Result;

        [ToolArg(Enum = new[] { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" }, Required = true)]
        public string Target;

        public bool Development;

        [ToolArg("The folder of the player: project-relative, or absolute when outside the project.", Required = true)]
        public string OutputPath;

        [ToolArg("What the build wrote there: the executable, package or folder.", Required = true)]
        public string Location;

        [ToolArg("The scenes built, in order.", Required = true)]
        public List<string> Scenes;

        [ToolArg(Required = true)]
        public List<string> Options;

        [ToolArg(Required = true)]
        public string StartedAt;

        [ToolArg(Required = true)]
        public string FinishedAt;

        public long DurationMs;

        [ToolArg("Bytes of the build output.")]
        public long TotalSize;

        public int TotalErrors;

        public int TotalWarnings;
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
            LongRunning = true, DeadlineMs = 3600000, Duplicates = "attach", Output = typeof(BuildPlayerResult))]
        public static object BuildPlayer(BuildPlayerArgs args, IToolContext context)
        {
            var services = EditorServices.Require();
            var target = args.Target ?? EditorUserBuildSettings.activeBuildTarget.ToString();
            if (EditorApplication.isPlaying)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity cannot build a player in play mode. Exit play mode (play_mode with action \"exit\"), then build.", new JObject { ["tool"] = "build_player", ["target"] = target });
            }
            if (BuildPipeline.isBuildingPlayer)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity is already building a player. Wait for that build to finish, then build again.", new JObject { ["tool"] = "build_player", ["target"] = target });
            }
            target = BuildPaths.TargetOf(args.Target, target);
            var buildTarget = (BuildTarget)Enum.Parse(typeof(BuildTarget), target);
            if (!BuildPipeline.IsBuildTargetSupported(BuildPipeline.GetBuildTargetGroup(buildTarget), buildTarget)) throw BuildPaths.NotInstalled(target);
            var output = BuildPaths.Output(services.ProjectRoot, target, args.OutputPath, args.AllowOutsideProject);
            var scenes = ScenesToBuild(services.ProjectRoot, args.Scenes);
            var location = BuildPaths.LocationIn(output.Shown, target, Application.productName);
            Directory.CreateDirectory(output.Full);
            var optionNames = BuildPaths.OptionNames(args.Development, args.Options);
            var options = new BuildPlayerOptions
            {
                // Empty: Unity builds the scene that is open, as its Build Settings window does.
                scenes = scenes,
                locationPathName = Path.IsPathRooted(location) ? location : ProjectPaths.ResolveInside(services.ProjectRoot, location),
                target = buildTarget,
                options = optionNames.Aggregate(BuildOptions.None, (flags, name) => flags | (BuildOptions)Enum.Parse(typeof(BuildOptions), name)),
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
            return new BuildPlayerResult
            {
                Status = "succeeded",
                Result = summary.result.ToString(),
                Target = target,
                Development = args.Development,
                OutputPath = output.Shown,
                Location = location,
                Scenes = scenes.ToList(),
                Options = optionNames,
                StartedAt = Iso(startedAt),
                FinishedAt = Iso(finishedAt),
                DurationMs = (long)summary.totalTime.TotalMilliseconds,
                TotalSize = (long)summary.totalSize,
                TotalErrors = summary.totalErrors,
                TotalWarnings = summary.totalWarnings,
            };
        }

        /// <summary>The scenes given (each a scene asset that exists), or the enabled scenes of the Build Settings.</summary>
        private static string[] ScenesToBuild(string projectRoot, List<string> given)
        {
            if (given == null) return EditorBuildSettings.scenes.Where(scene => scene.enabled).Select(scene => scene.path).ToArray();
            return given.Select((input, index) =>
            {
                var path = ScenePaths.Normalize(projectRoot, input, "build_player", "scenes." + index);
                if (File.Exists(ProjectPaths.ResolveInside(projectRoot, path))) return path;
                var known = AssetDatabase.FindAssets("t:Scene", new[] { "Assets" }).Select(AssetDatabase.GUIDToAssetPath);
                throw ScenePaths.NoScene("build_player", path, known);
            }).ToArray();
        }

        private static string Iso(DateTime utc) => utc.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
    }
}
