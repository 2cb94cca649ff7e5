using System;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/SerializedObject.html
    public class SerializedObject : IDisposable
    {
        // https://docs.unity3d.com/ScriptReference/SerializedObject-ctor.html
        public SerializedObject(Object obj) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedObject-targetObject.html
        public Object targetObject => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedObject.GetIterator.html
        public SerializedProperty GetIterator() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedObject.FindProperty.html
        public SerializedProperty FindProperty(string propertyPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedObject.ApplyModifiedProperties.html
        public bool ApplyModifiedProperties() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedObject.Dispose.html
        public void Dispose() => throw new NotImplementedException();
    }
}
