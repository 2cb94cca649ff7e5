using System;
using Tether.Core.Tools;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Builds
{
    /// <summary>
    /// The build_player call a running BuildPipeline.BuildPlayer belongs to. BuildPlayer blocks
    /// the main thread until the player is built; Unity calls back into managed code once per
    /// scene it processes (IProcessSceneWithReport), and those callbacks are where the call
    /// reports progress and notices a cancellation: throwing BuildFailedException there is how
    /// Unity lets a build be stopped. Main thread only.
    /// </summary>
    internal sealed class BuildSession : IDisposable
    {
        private readonly IToolContext _context;
        private readonly string _target;
        private readonly int _sceneCount;

        /// <summary>The build under way, or null.</summary>
        public static BuildSession Current { get; private set; }

        public BuildSession(IToolContext context, string target, int sceneCount)
        {
            _context = context;
            _target = target;
            _sceneCount = Math.Max(1, sceneCount);
            Current = this;
        }

        public int ScenesProcessed { get; private set; }

        /// <summary>The call was cancelled while Unity built, and the build was stopped for it.</summary>
        public bool Cancelled { get; private set; }

        public void OnScene(string sceneName)
        {
            ScenesProcessed++;
            var done = Math.Min(ScenesProcessed, _sceneCount);
            _context?.Progress(done, _sceneCount, "Building " + _target + ": scene " + done + " of " + _sceneCount + " (" + sceneName + ")");
            if (_context != null && _context.Cancellation.IsCancellationRequested)
            {
                Cancelled = true;
                throw new BuildFailedException("Build for " + _target + " stopped: the Tether call that started it was cancelled.");
            }
        }

        public void Dispose()
        {
            if (Current == this) Current = null;
        }
    }

    /// <summary>Unity's per-scene build callback, handed to the Tether build under way (none: it does nothing).</summary>
    internal sealed class BuildSceneCallback : IProcessSceneWithReport
    {
        public int callbackOrder => 0;

        public void OnProcessScene(Scene scene, BuildReport report)
        {
            // Unity also calls this as scenes load when entering play mode, without a report.
            if (report == null) return;
            BuildSession.Current?.OnScene(scene.name);
        }
    }
}
