using System.Collections.Generic;
using System.Linq;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Screenshots
{
    /// <summary>
    /// Renders cameras into a PNG of a given size, off screen: each camera draws, in turn, into
    /// one temporary RenderTexture (later ones over earlier ones, as the Game view composites
    /// its cameras by depth), which is read back into a Texture2D and encoded. Each camera's
    /// target and the active RenderTexture are restored, the temporaries destroyed. Main thread only.
    /// </summary>
    internal static class CameraCapture
    {
        /// <summary>The Scene view's camera when a Scene view is open, else the main camera; null when neither exists.</summary>
        public static Camera Pick(out string view)
        {
            var sceneView = SceneView.lastActiveSceneView;
            if (sceneView != null && sceneView.camera != null)
            {
                view = "scene view";
                return sceneView.camera;
            }
            view = "main camera";
            return Camera.main;
        }

        /// <summary>What the Game view draws: the enabled cameras that render to the screen (no target texture), lowest depth first.</summary>
        public static IReadOnlyList<Camera> GameCameras() =>
            Camera.allCameras.Where(camera => camera != null && camera.targetTexture == null).OrderBy(camera => camera.depth).ToList();

        public static byte[] RenderPng(Camera camera, int width, int height) => RenderPng(new[] { camera }, width, height);

        public static byte[] RenderPng(IReadOnlyList<Camera> cameras, int width, int height)
        {
            var target = new RenderTexture(width, height, 24);
            var previousActive = RenderTexture.active;
            Texture2D image = null;
            try
            {
                foreach (var camera in cameras)
                {
                    var previousTarget = camera.targetTexture;
                    try
                    {
                        camera.targetTexture = target;
                        camera.Render();
                    }
                    finally
                    {
                        camera.targetTexture = previousTarget;
                    }
                }
                RenderTexture.active = target;
                image = new Texture2D(width, height, TextureFormat.RGB24, false);
                image.ReadPixels(new Rect(0, 0, width, height), 0, 0);
                image.Apply();
                return image.EncodeToPNG();
            }
            finally
            {
                RenderTexture.active = previousActive;
                target.Release();
                Object.DestroyImmediate(target);
                if (image != null) Object.DestroyImmediate(image);
            }
        }
    }
}
