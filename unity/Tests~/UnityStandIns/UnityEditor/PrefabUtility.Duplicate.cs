using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    public sealed partial class PrefabUtility
    {
        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetCorrespondingObjectFromSource.html
        public static TObject GetCorrespondingObjectFromSource<TObject>(TObject componentOrGameObject) where TObject : Object => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.IsAnyPrefabInstanceRoot.html
        public static bool IsAnyPrefabInstanceRoot(UnityEngine.GameObject gameObject) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.GetPropertyModifications.html
        public static PropertyModification[] GetPropertyModifications(Object targetPrefab) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/PrefabUtility.SetPropertyModifications.html
        public static void SetPropertyModifications(Object targetPrefab, PropertyModification[] modifications) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/PropertyModification.html
    public sealed class PropertyModification
    {
        // https://docs.unity3d.com/ScriptReference/PropertyModification-target.html
        public Object target;

        // https://docs.unity3d.com/ScriptReference/PropertyModification-propertyPath.html
        public string propertyPath;

        // https://docs.unity3d.com/ScriptReference/PropertyModification-value.html
        public string value;

        // https://docs.unity3d.com/ScriptReference/PropertyModification-objectReference.html
        public Object objectReference;
    }
}
