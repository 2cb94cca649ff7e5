using System;
using System.Collections.Generic;
using UnityEditor.SceneManagement;
using UnityEngine;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/PrefabUtility.html
    public sealed partial class PrefabUtility
    {
        // https://docs.unity3d.com/ScriptReference/PrefabUtility.SaveAsPrefabAssetAndConnect.html
        public static GameObject SaveAsPrefabAssetAndConnect(GameObject instanceRoot, string assetPath, InteractionMode action, out bool success) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.SaveAsPrefabAsset.html
        public static GameObject SaveAsPrefabAsset(GameObject instanceRoot, string assetPath, out bool success) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.InstantiatePrefab.html
        public static Object InstantiatePrefab(Object assetComponentOrGameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.InstantiatePrefab.html
        public static Object InstantiatePrefab(Object assetComponentOrGameObject, Transform parent) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.ApplyPrefabInstance.html
        public static void ApplyPrefabInstance(GameObject instanceRoot, InteractionMode action) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.RevertPrefabInstance.html
        public static void RevertPrefabInstance(GameObject instanceRoot, InteractionMode action) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetObjectOverrides.html
        public static List<ObjectOverride> GetObjectOverrides(GameObject prefabInstance, bool includeDefaultOverrides = false) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetAddedComponents.html
        public static List<AddedComponent> GetAddedComponents(GameObject prefabInstance) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetRemovedComponents.html
        public static List<RemovedComponent> GetRemovedComponents(GameObject prefabInstance) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetAddedGameObjects.html
        public static List<AddedGameObject> GetAddedGameObjects(GameObject prefabInstance) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.IsPartOfPrefabInstance.html
        public static bool IsPartOfPrefabInstance(Object componentOrGameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.IsOutermostPrefabInstanceRoot.html
        public static bool IsOutermostPrefabInstanceRoot(GameObject gameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetOutermostPrefabInstanceRoot.html
        public static GameObject GetOutermostPrefabInstanceRoot(Object componentOrGameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot.html
        public static string GetPrefabAssetPathOfNearestInstanceRoot(Object instanceComponentOrGameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.HasPrefabInstanceAnyOverrides.html
        public static bool HasPrefabInstanceAnyOverrides(GameObject instanceRoot, bool includeDefaultOverrides) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetPrefabInstanceStatus.html
        public static PrefabInstanceStatus GetPrefabInstanceStatus(Object componentOrGameObject) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/InteractionMode.html
    public enum InteractionMode
    {
        AutomatedAction = 0,
        UserAction = 1,
    }

    // https://docs.unity3d.com/ScriptReference/PrefabInstanceStatus.html
    public enum PrefabInstanceStatus
    {
        NotAPrefab = 0,
        Connected = 1,
        Disconnected = 2,
        MissingAsset = 3,
    }
}

namespace UnityEditor.SceneManagement
{
    // https://docs.unity3d.com/ScriptReference/SceneManagement.PrefabOverride.html
    public abstract class PrefabOverride
    {
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.ObjectOverride.html
    public class ObjectOverride : PrefabOverride
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.ObjectOverride-instanceObject.html
        public Object instanceObject { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.AddedComponent.html
    public class AddedComponent : PrefabOverride
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.AddedComponent-instanceComponent.html
        public Component instanceComponent { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.RemovedComponent.html
    public class RemovedComponent : PrefabOverride
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.RemovedComponent-assetComponent.html
        public Component assetComponent { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SceneManagement.RemovedComponent-containingInstanceGameObject.html
        public GameObject containingInstanceGameObject { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/SceneManagement.AddedGameObject.html
    public class AddedGameObject : PrefabOverride
    {
        // https://docs.unity3d.com/ScriptReference/SceneManagement.AddedGameObject-instanceGameObject.html
        public GameObject instanceGameObject { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }
}
