using System;
using UnityEngine.SceneManagement;

namespace UnityEngine
{
    public sealed partial class Camera
    {
        // https://docs.unity3d.com/ScriptReference/Camera-allCameras.html
        public static Camera[] allCameras => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Camera-depth.html
        public float depth { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    public sealed partial class GameObject
    {
        // https://docs.unity3d.com/ScriptReference/GameObject-scene.html
        public Scene scene => throw new NotImplementedException();
    }
}
