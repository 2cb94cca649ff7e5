using System;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/AssetDatabase.html
    public partial class AssetDatabase
    {
        // https://docs.unity3d.com/ScriptReference/AssetDatabase.FindAssets.html
        public static string[] FindAssets(string filter, string[] searchInFolders) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.GUIDToAssetPath.html
        public static string GUIDToAssetPath(string guid) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.IsAssetImportWorkerProcess.html
        public static bool IsAssetImportWorkerProcess() => false;
    }
}
