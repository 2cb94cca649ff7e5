using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/TypeCache.html
    public static partial class TypeCache
    {
        // https://docs.unity3d.com/ScriptReference/TypeCache.GetMethodsWithAttribute.html
        public static MethodCollection GetMethodsWithAttribute<T>() where T : Attribute => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/TypeCache.GetTypesDerivedFrom.html
        public static TypeCollection GetTypesDerivedFrom<T>() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/TypeCache.MethodCollection.html
        // (Unity's implements IList<MethodInfo>; only enumeration is used.)
        public struct MethodCollection : IEnumerable<MethodInfo>
        {
            public IEnumerator<MethodInfo> GetEnumerator() => throw new NotImplementedException();
            IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
        }

        // https://docs.unity3d.com/ScriptReference/TypeCache.TypeCollection.html
        // (Unity's implements IList<Type>; only enumeration is used.)
        public struct TypeCollection : IEnumerable<Type>
        {
            public IEnumerator<Type> GetEnumerator() => throw new NotImplementedException();
            IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
        }
    }

    // https://docs.unity3d.com/ScriptReference/MenuItem.html
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        // https://docs.unity3d.com/ScriptReference/MenuItem-ctor.html
        public MenuItem(string itemName) => menuItem = itemName;

        // https://docs.unity3d.com/ScriptReference/MenuItem-menuItem.html
        public string menuItem;

        // https://docs.unity3d.com/ScriptReference/MenuItem-validate.html
        public bool validate;
    }

    // https://docs.unity3d.com/ScriptReference/EditorWindow.html
    public class EditorWindow : UnityEngine.ScriptableObject
    {
    }

    // https://docs.unity3d.com/ScriptReference/SceneView.html
    public class SceneView : EditorWindow
    {
        // https://docs.unity3d.com/ScriptReference/SceneView-lastActiveSceneView.html
        public static SceneView lastActiveSceneView => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SceneView-camera.html
        public UnityEngine.Camera camera => throw new NotImplementedException();
    }
}
