using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Screenshots
{
    /// <summary>screenshot's view and camera arguments, checked together as the sandbox checks them (src/sandbox/tools/screenshot.ts).</summary>
    internal static class ScreenshotRequest
    {
        /// <summary>INVALID_ARGUMENTS unless a camera path comes with view "camera", and only with it.</summary>
        public static void Check(string view, string camera)
        {
            if ((camera == null) == (view != "camera")) return;
            var problem = view == "camera" ? "view \"camera\" needs the camera's path" : "camera is only for view \"camera\" (view is \"" + view + "\")";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for screenshot: camera: " + problem + ". Give view \"camera\" with camera \"/Path/To/Camera\", or another view without camera.",
                new JObject { ["tool"] = "screenshot", ["field"] = "camera", ["problem"] = problem });
        }
    }
}
