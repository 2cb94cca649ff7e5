using System;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace UnityEditor.SceneManagement
{
    // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStageUtility.html
    public static class PrefabStageUtility
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStageUtility.GetCurrentPrefabStage.html
        public static PrefabStage GetCurrentPrefabStage() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStageUtility.GetPrefabStage.html
        public static PrefabStage GetPrefabStage(GameObject gameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStageUtility.OpenPrefab.html
        public static PrefabStage OpenPrefab(string prefabAssetPath) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.Stage.html
    public abstract class Stage : ScriptableObject
    {
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.PreviewSceneStage.html
    public abstract class PreviewSceneStage : Stage
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.PreviewSceneStage-scene.html
        public Scene scene { get => throw new NotImplementedException(); protected set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStage.html
    public sealed class PrefabStage : PreviewSceneStage
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStage-assetPath.html
        public string assetPath => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStage-prefabContentsRoot.html
        public GameObject prefabContentsRoot => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabStage.ClearDirtiness.html
        public void ClearDirtiness() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.StageUtility.html
    public static partial class StageUtility
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.StageUtility.GoToMainStage.html
        public static void GoToMainStage() => throw new NotImplementedException();
    }
}
