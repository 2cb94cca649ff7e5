using System;
using UnityEngine.SceneManagement;

namespace UnityEditor.SceneManagement
{
    // https://docs.unity3d.com/ScriptReference/SceneManagement.EditorSceneManager.html
    public sealed class EditorSceneManager : SceneManager
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.EditorSceneManager.OpenScene.html
        public static Scene OpenScene(string scenePath, OpenSceneMode mode = OpenSceneMode.Single) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.EditorSceneManager.NewScene.html
        public static Scene NewScene(NewSceneSetup setup, NewSceneMode mode = NewSceneMode.Single) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.EditorSceneManager.SaveScene.html
        public static bool SaveScene(Scene scene, string dstScenePath = "", bool saveAsCopy = false) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.OpenSceneMode.html
    public enum OpenSceneMode
    {
        Single = 0,
        Additive = 1,
        AdditiveWithoutLoading = 2,
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.NewSceneSetup.html
    public enum NewSceneSetup
    {
        EmptyScene = 0,
        DefaultGameObjects = 1,
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.NewSceneMode.html
    public enum NewSceneMode
    {
        Single = 0,
        Additive = 1,
    }
}
