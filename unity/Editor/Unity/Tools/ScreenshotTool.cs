using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Scenes;
using Tether.Unity.Screenshots;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class ScreenshotArgs
    {
        [ToolArg(Minimum = 16, Maximum = 4096)]
        public int Width = 320;

        [ToolArg(Minimum = 16, Maximum = 4096)]
        public int Height = 240;

        [ToolArg("\"scene\": the Scene view; \"game\": the Game view; \"camera\": the camera named by camera.", Enum = new[] { "scene", "game", "camera" })]
        public string View = "scene";

        [ToolArg("With view \"camera\": the path of a GameObject with a Camera, e.g. \"/Main Camera\".")]
        public string Camera;
    }

    /// <summary>
    /// screenshot: the Scene view (or, without one, the main camera), the Game view (its cameras
    /// composited by depth) or one camera, rendered off screen into a PNG image.
    /// </summary>
    public static class ScreenshotTool
    {
        [TetherTool("screenshot", Title = "Screenshot",
            Description = "Renders the scene view (the main camera when no Scene view is open), the Game view (the cameras that draw to the screen, by depth) or a given camera, at the size asked, to a PNG and returns it as an image.",
            ReadOnly = true, Idempotent = true)]
        public static object Screenshot(ScreenshotArgs args)
        {
            ScreenshotRequest.Check(args.View, args.Camera);
            IReadOnlyList<UnityEngine.Camera> cameras;
            string view;
            if (args.View == "camera")
            {
                var camera = RequireCamera(args.Camera);
                cameras = new[] { camera };
                view = "camera \"" + SceneGraph.PathOf(camera.gameObject) + "\"";
            }
            else if (args.View == "game")
            {
                cameras = CameraCapture.GameCameras();
                if (cameras.Count == 0)
                {
                    throw new TetherException(
                        ErrorCodes.ToolFailed,
                        "Nothing to render in the Game view: the scene has no active camera. Add one (create_gameobject with components [\"Camera\"]), or take view \"scene\".",
                        new JObject { ["tool"] = "screenshot" });
                }
                view = "game view through " + string.Join(", ", cameras.Select(c => "\"" + SceneGraph.PathOf(c.gameObject) + "\""));
            }
            else
            {
                var camera = CameraCapture.Pick(out view);
                if (camera == null)
                {
                    throw new TetherException(
                        ErrorCodes.ToolFailed,
                        "Nothing to render: no Scene view is open and the scene has no main camera (a Camera tagged MainCamera). Open a Scene view or add a camera, then try again.",
                        new JObject { ["tool"] = "screenshot" });
                }
                cameras = new[] { camera };
            }
            var png = CameraCapture.RenderPng(cameras, args.Width, args.Height);
            return new ToolResult()
                .Add(ToolContent.Image(Convert.ToBase64String(png), "image/png"))
                .Add(ToolContent.Text("Scene \"" + SceneGraph.Scene.name + "\", " + view + ", " + args.Width + "x" + args.Height + "."));
        }

        /// <summary>The Camera on the GameObject at <paramref name="path"/>, or INVALID_ARGUMENTS naming the scene's cameras.</summary>
        private static UnityEngine.Camera RequireCamera(string path)
        {
            var gameObject = SceneGraph.Require(path);
            var camera = gameObject.GetComponents(typeof(UnityEngine.Camera)).OfType<UnityEngine.Camera>().FirstOrDefault();
            if (camera != null) return camera;
            var cameras = HierarchyPath.Walk(SceneGraph.Roots(), SceneGraph.Children)
                .Where(go => go.GetComponents(typeof(UnityEngine.Camera)).Length > 0)
                .Select(SceneGraph.PathOf)
                .ToList();
            var problem = "\"" + SceneGraph.PathOf(gameObject) + "\" has no Camera";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for screenshot: camera: " + problem + ". Cameras in the scene: " + (cameras.Count > 0 ? string.Join(", ", cameras) : "none") + ".",
                new JObject { ["tool"] = "screenshot", ["field"] = "camera", ["problem"] = problem, ["suggestions"] = new JArray(ToolSuggestions.Closest(path, cameras)) });
        }
    }
}
