using System;
using UnityEngine;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/Undo.html
    public partial class Undo
    {
        // https://docs.unity3d.com/ScriptReference/Undo.RegisterCreatedObjectUndo.html
        public static void RegisterCreatedObjectUndo(Object objectToUndo, string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.RecordObject.html
        public static void RecordObject(Object objectToUndo, string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.DestroyObjectImmediate.html
        public static void DestroyObjectImmediate(Object objectToUndo) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.AddComponent.html
        public static Component AddComponent(GameObject gameObject, Type type) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.IncrementCurrentGroup.html
        public static void IncrementCurrentGroup() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.SetCurrentGroupName.html
        public static void SetCurrentGroupName(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.GetCurrentGroup.html
        public static int GetCurrentGroup() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.SetTransformParent.html
        public static void SetTransformParent(Transform transform, Transform newParent, string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.PerformUndo.html
        public static void PerformUndo() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.PerformRedo.html
        public static void PerformRedo() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Undo.CollapseUndoOperations.html
        public static void CollapseUndoOperations(int groupIndex) => throw new NotImplementedException();
    }
}
