using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Screenshots
{
    /// <summary>
    /// Renders a camera into a PNG of a given size, off screen: the camera draws into a
    /// temporary RenderTexture, which is read back into a Texture2D and encoded. The camera's
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

        public static byte[] RenderPng(Camera camera, int width, int height)
        {
            var target = new RenderTexture(width, height, 24);
            var previousTarget = camera.targetTexture;
            var previousActive = RenderTexture.active;
            Texture2D image = null;
            try
            {
                camera.targetTexture = target;
                camera.Render();
                RenderTexture.active = target;
                image = new Texture2D(width, height, TextureFormat.RGB24, false);
                image.ReadPixels(new Rect(0, 0, width, height), 0, 0);
                image.Apply();
                return image.EncodeToPNG();
            }
            finally
            {
                camera.targetTexture = previousTarget;
                RenderTexture.active = previousActive;
                target.Release();
                Object.DestroyImmediate(target);
                if (image != null) Object.DestroyImmediate(image);
            }
        }
    }
}
