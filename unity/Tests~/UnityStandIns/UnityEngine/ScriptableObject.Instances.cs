using System;

namespace UnityEngine
{
    public partial class ScriptableObject
    {
        // https://docs.unity3d.com/ScriptReference/ScriptableObject.CreateInstance.html
        public static ScriptableObject CreateInstance(Type type) => throw new NotImplementedException();
    }
}
