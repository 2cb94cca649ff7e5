using System;

namespace UnityEditor
{
    public partial class Undo
    {
        // https://docs.unity3d.com/ScriptReference/Undo.RevertAllDownToGroup.html
        public static void RevertAllDownToGroup(int group) => throw new NotImplementedException();
    }
}
