using System;

namespace UnityEngine
{
    public partial class Application
    {
        // https://docs.unity3d.com/ScriptReference/Application-platform.html
        public static RuntimePlatform platform => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/RuntimePlatform.html (the editors' values)
    public enum RuntimePlatform
    {
        OSXEditor = 0,
        WindowsEditor = 7,
        LinuxEditor = 16,
    }
}
