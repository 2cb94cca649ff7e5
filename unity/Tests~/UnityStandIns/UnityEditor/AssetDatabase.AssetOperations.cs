using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // The AssetDatabase members the asset, material and ScriptableObject tools use.
    public partial class AssetDatabase
    {
        // https://docs.unity3d.com/ScriptReference/AssetDatabase.AssetPathToGUID.html
        public static string AssetPathToGUID(string path) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.GetMainAssetTypeAtPath.html
        public static Type GetMainAssetTypeAtPath(string assetPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.IsValidFolder.html
        public static bool IsValidFolder(string path) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.CreateFolder.html
        public static string CreateFolder(string parentFolder, string newFolderName) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.MoveAsset.html
        public static string MoveAsset(string oldPath, string newPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.RenameAsset.html
        public static string RenameAsset(string pathName, string newName) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.MoveAssetToTrash.html
        public static bool MoveAssetToTrash(string path) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.DeleteAsset.html
        public static bool DeleteAsset(string path) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.Refresh.html
        public static void Refresh(ImportAssetOptions options = ImportAssetOptions.Default) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.ImportAsset.html
        public static void ImportAsset(string path, ImportAssetOptions options = ImportAssetOptions.Default) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.GetLabels.html
        public static string[] GetLabels(Object obj) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.GetDependencies.html
        public static string[] GetDependencies(string pathName, bool recursive) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.CreateAsset.html
        public static void CreateAsset(Object asset, string path) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/AssetDatabase.SaveAssetIfDirty.html
        public static void SaveAssetIfDirty(Object obj) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/ImportAssetOptions.html
    [Flags]
    public enum ImportAssetOptions
    {
        Default = 0,
        ForceUpdate = 1,
        ForceSynchronousImport = 8,
        ImportRecursive = 256,
        DontDownloadFromCacheServer = 2048,
        ForceUncompressedImport = 16384,
    }

    // https://docs.unity3d.com/ScriptReference/ShaderUtil.html
    public sealed partial class ShaderUtil
    {
        // https://docs.unity3d.com/ScriptReference/ShaderUtil.GetAllShaderInfo.html
        public static ShaderInfo[] GetAllShaderInfo() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/ShaderInfo.html
    public partial struct ShaderInfo
    {
        // https://docs.unity3d.com/ScriptReference/ShaderInfo-name.html
        public string name => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/ShaderInfo-supported.html
        public bool supported => throw new NotImplementedException();
    }
}
