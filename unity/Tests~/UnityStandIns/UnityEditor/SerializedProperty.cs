using System;
using UnityEngine;
using Object = UnityEngine.Object;

namespace UnityEditor
{
    // https://docs.unity3d.com/ScriptReference/SerializedProperty.html
    public class SerializedProperty : IDisposable
    {
        // https://docs.unity3d.com/ScriptReference/SerializedProperty-propertyPath.html
        public string propertyPath => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-propertyType.html
        public SerializedPropertyType propertyType => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-name.html
        public string name => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-type.html
        public string type => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-depth.html
        public int depth => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-isArray.html
        public bool isArray => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-arraySize.html
        public int arraySize { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.GetArrayElementAtIndex.html
        public SerializedProperty GetArrayElementAtIndex(int index) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.FindPropertyRelative.html
        public SerializedProperty FindPropertyRelative(string relativePropertyPath) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.NextVisible.html
        public bool NextVisible(bool enterChildren) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.Copy.html
        public SerializedProperty Copy() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.GetEndProperty.html
        public SerializedProperty GetEndProperty() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.EqualContents.html
        public static bool EqualContents(SerializedProperty x, SerializedProperty y) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-longValue.html
        public long longValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-intValue.html
        public int intValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-floatValue.html
        public float floatValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-doubleValue.html
        public double doubleValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-boolValue.html
        public bool boolValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-stringValue.html
        public string stringValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-colorValue.html
        public Color colorValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-vector2Value.html
        public Vector2 vector2Value { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-vector3Value.html
        public Vector3 vector3Value { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-vector4Value.html
        public Vector4 vector4Value { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-quaternionValue.html
        public Quaternion quaternionValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-vector2IntValue.html
        public Vector2Int vector2IntValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-vector3IntValue.html
        public Vector3Int vector3IntValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-rectValue.html
        public Rect rectValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-objectReferenceValue.html
        public Object objectReferenceValue { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-enumValueIndex.html
        public int enumValueIndex { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/SerializedProperty-enumNames.html
        public string[] enumNames => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/SerializedProperty.Dispose.html
        public void Dispose() => throw new NotImplementedException();
    }
}
