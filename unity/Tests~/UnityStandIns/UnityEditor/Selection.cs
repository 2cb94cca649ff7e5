using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/Selection.html
    public sealed class Selection
    {
        // https://docs.unity3d.com/ScriptReference/Selection-objects.html
        public static Object[] objects { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Selection-activeObject.html
        public static Object activeObject { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    public partial class EditorUtility
    {
        // https://docs.unity3d.com/ScriptReference/EditorUtility.IsPersistent.html
        public static bool IsPersistent(Object target) => throw new NotImplementedException();
    }
}
