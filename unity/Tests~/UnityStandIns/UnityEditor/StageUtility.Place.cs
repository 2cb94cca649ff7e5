using System;
using UnityEngine;

namespace UnityEditor.SceneManagement
{
    public static partial class StageUtility
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.StageUtility.PlaceGameObjectInCurrentStage.html
        public static void PlaceGameObjectInCurrentStage(GameObject gameObject) => throw new NotImplementedException();
    }
}
