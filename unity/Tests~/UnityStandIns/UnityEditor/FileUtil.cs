using System;

namespace UnityEditor
{
    // https://docs.unity3d.com/2021.3/Documentation/ScriptReference/FileUtil.html
    public class FileUtil
    {
        // https://docs.unity3d.com/2021.3/Documentation/ScriptReference/FileUtil.GetPhysicalPath.html
        public static string GetPhysicalPath(string path) => throw new NotImplementedException();
    }
}
