using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    public partial class AssetDatabase
    {
        // https://docs.unity3d.com/ScriptReference/AssetDatabase.LoadAssetAtPath.html
        public static T LoadAssetAtPath<T>(string assetPath) where T : Object => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.LoadMainAssetAtPath.html
        public static Object LoadMainAssetAtPath(string assetPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.GetAssetPath.html
        public static string GetAssetPath(Object assetObject) => throw new NotImplementedException();
    }
}
