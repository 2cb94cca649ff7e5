using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Application.html
    public partial class Application
    {
        // https://docs.unity3d.com/ScriptReference/Application-dataPath.html
        public static string dataPath => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Application-unityVersion.html
        public static string unityVersion => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Application-productName.html
        public static string productName => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Application.LogCallback.html
        public delegate void LogCallback(string condition, string stackTrace, LogType type);

        // https://docs.unity3d.com/ScriptReference/Application-logMessageReceivedThreaded.html
        public static event LogCallback logMessageReceivedThreaded;

        /// <summary>Test hook (not Unity API): what Unity does when something is logged.</summary>
        internal static void RaiseLog(string condition, string stackTrace, LogType type) =>
            logMessageReceivedThreaded?.Invoke(condition, stackTrace, type);
    }

    // https://docs.unity3d.com/ScriptReference/LogType.html
    public enum LogType
    {
        Error = 0,
        Assert = 1,
        Warning = 2,
        Log = 3,
        Exception = 4,
    }

    // https://docs.unity3d.com/ScriptReference/Debug.html
    public class Debug
    {
        // https://docs.unity3d.com/ScriptReference/Debug.Log.html
        public static void Log(object message) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Debug.LogWarning.html
        public static void LogWarning(object message) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Debug.LogError.html
        public static void LogError(object message) => throw new NotImplementedException();
    }
}

namespace UnityEngine.SceneManagement
{
    // https://docs.unity3d.com/ScriptReference/SceneManagement.SceneManager.html
    public class SceneManager
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.SceneManager.GetActiveScene.html
        public static Scene GetActiveScene() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.SceneManager-sceneCount.html
        public static int sceneCount => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.SceneManager.GetSceneAt.html
        public static Scene GetSceneAt(int index) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.SceneManager.SetActiveScene.html
        public static bool SetActiveScene(Scene scene) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene.html
    public struct Scene
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-name.html
        public string name => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-isLoaded.html
        public bool isLoaded => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-path.html
        public string path => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-isDirty.html
        public bool isDirty => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-rootCount.html
        public int rootCount => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene.IsValid.html
        public bool IsValid() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-operator_eq.html
        public static bool operator ==(Scene lhs, Scene rhs) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene-operator_ne.html
        public static bool operator !=(Scene lhs, Scene rhs) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene.Equals.html (overrides Object.Equals)
        public override bool Equals(object other) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene.GetHashCode.html (overrides Object.GetHashCode)
        public override int GetHashCode() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.Scene.GetRootGameObjects.html
        public GameObject[] GetRootGameObjects() => throw new NotImplementedException();
    }
}
