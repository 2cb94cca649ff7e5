using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Object.html
    // Unity's Object also overrides Equals and GetHashCode (not in the Scripting API); nothing here calls them.
#pragma warning disable CS0660, CS0661
    public class Object
    {
        // https://docs.unity3d.com/ScriptReference/Object-operator_eq.html
        // (true for a destroyed object compared with null: the code's "== null" binds to this, as in Unity)
        public static bool operator ==(Object x, Object y) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Object-operator_ne.html
        public static bool operator !=(Object x, Object y) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Object-name.html
        public string name { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Object.GetInstanceID.html
        public int GetInstanceID() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Object.Instantiate.html
        public static T Instantiate<T>(T original, Transform parent) where T : Object => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Object.DestroyImmediate.html
        public static void DestroyImmediate(Object obj) => throw new NotImplementedException();
    }
#pragma warning restore CS0660, CS0661

    // https://docs.unity3d.com/ScriptReference/ScriptableObject.html
    public partial class ScriptableObject : Object
    {
        // https://docs.unity3d.com/ScriptReference/ScriptableObject.CreateInstance.html
        public static T CreateInstance<T>() where T : ScriptableObject => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/Component.html
    public class Component : Object
    {
        // https://docs.unity3d.com/ScriptReference/Component-gameObject.html
        public GameObject gameObject => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/Behaviour.html
    public class Behaviour : Component
    {
    }
}
