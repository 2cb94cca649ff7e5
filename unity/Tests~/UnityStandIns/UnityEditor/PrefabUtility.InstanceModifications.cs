using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    public sealed partial class PrefabUtility
    {
        // https://docs.unity3d.com/ScriptReference/PrefabUtility.RecordPrefabInstancePropertyModifications.html
        public static void RecordPrefabInstancePropertyModifications(Object targetObject) => throw new NotImplementedException();
    }
}
