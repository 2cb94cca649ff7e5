using System;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Scenes;
using Tether.Unity.Screenshots;

namespace Tether.Unity.Tools
{
    public sealed class ScreenshotArgs
    {
        [ToolArg(Minimum = 16, Maximum = 4096)]
        public int Width = 320;

        [ToolArg(Minimum = 16, Maximum = 4096)]
        public int Height = 240;
    }

    /// <summary>screenshot: the Scene view (or, without one, the main camera) rendered off screen into a PNG image.</summary>
    public static class ScreenshotTool
    {
        [TetherTool("screenshot", Title = "Screenshot",
            Description = "Renders the scene view (the main camera when no Scene view is open) to a PNG and returns it as an image.",
            ReadOnly = true, Idempotent = true)]
        public static object Screenshot(ScreenshotArgs args)
        {
            var camera = CameraCapture.Pick(out var view);
            if (camera == null)
            {
                throw new TetherException(
                    ErrorCodes.ToolFailed,
                    "Nothing to render: no Scene view is open and the scene has no main camera (a Camera tagged MainCamera). Open a Scene view or add a camera, then try again.",
                    new JObject { ["tool"] = "screenshot" });
            }
            var png = CameraCapture.RenderPng(camera, args.Width, args.Height);
            return new ToolResult()
                .Add(ToolContent.Image(Convert.ToBase64String(png), "image/png"))
                .Add(ToolContent.Text("Scene \"" + SceneGraph.Scene.name + "\", " + view + ", " + args.Width + "x" + args.Height + "."));
        }
    }
}
