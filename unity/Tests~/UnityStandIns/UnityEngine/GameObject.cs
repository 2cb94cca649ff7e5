using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/GameObject.html
    public sealed partial class GameObject : Object
    {
        // https://docs.unity3d.com/ScriptReference/GameObject-ctor.html
        public GameObject(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/GameObject.CreatePrimitive.html
        public static GameObject CreatePrimitive(PrimitiveType type) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/GameObject-transform.html
        public Transform transform => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/GameObject-activeSelf.html
        public bool activeSelf => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/GameObject.SetActive.html
        public void SetActive(bool value) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/GameObject-tag.html
        public string tag { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/GameObject.GetComponents.html
        public Component[] GetComponents(Type type) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/PrimitiveType.html
    public enum PrimitiveType
    {
        Sphere = 0,
        Capsule = 1,
        Cylinder = 2,
        Cube = 3,
        Plane = 4,
        Quad = 5,
    }

    // https://docs.unity3d.com/ScriptReference/Transform.html
    public partial class Transform : Component
    {
        // https://docs.unity3d.com/ScriptReference/Transform-parent.html
        public Transform parent { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Transform.SetParent.html
        public void SetParent(Transform parent, bool worldPositionStays) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Transform-childCount.html
        public int childCount => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Transform.GetChild.html
        public Transform GetChild(int index) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Transform-localPosition.html
        public Vector3 localPosition { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Transform-localEulerAngles.html
        public Vector3 localEulerAngles { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Transform-localScale.html
        public Vector3 localScale { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }
    }

    // https://docs.unity3d.com/ScriptReference/Vector3.html
    public struct Vector3
    {
        // https://docs.unity3d.com/ScriptReference/Vector3-x.html (and -y, -z)
        public float x;
        public float y;
        public float z;

        // https://docs.unity3d.com/ScriptReference/Vector3-ctor.html
        public Vector3(float x, float y, float z)
        {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    // https://docs.unity3d.com/ScriptReference/Rect.html
    public partial struct Rect
    {
        // https://docs.unity3d.com/ScriptReference/Rect-ctor.html
        public Rect(float x, float y, float width, float height) => throw new NotImplementedException();
    }
}
