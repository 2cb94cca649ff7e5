using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // The AssetDatabase members the serialized-property tools use to resolve and show references.
    public partial class AssetDatabase
    {
        // https://docs.unity3d.com/ScriptReference/AssetDatabase.LoadAllAssetsAtPath.html
        public static Object[] LoadAllAssetsAtPath(string assetPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.IsMainAsset.html
        public static bool IsMainAsset(Object obj) => throw new NotImplementedException();
    }
}
