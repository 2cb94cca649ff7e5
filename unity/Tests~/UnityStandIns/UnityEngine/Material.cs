using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Material.html
    public partial class Material : Object
    {
        // https://docs.unity3d.com/ScriptReference/Material-ctor.html
        public Material(Shader shader) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material-shader.html
        public Shader shader { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Material.HasProperty.html
        public bool HasProperty(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.GetColor.html
        public Color GetColor(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.SetColor.html
        public void SetColor(string name, Color value) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.GetVector.html
        public Vector4 GetVector(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.SetVector.html
        public void SetVector(string name, Vector4 value) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.GetFloat.html
        public float GetFloat(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.SetFloat.html
        public void SetFloat(string name, float value) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.GetInteger.html
        public int GetInteger(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.SetInteger.html
        public void SetInteger(string name, int value) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.GetTexture.html
        public Texture GetTexture(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Material.SetTexture.html
        public void SetTexture(string name, Texture value) => throw new NotImplementedException();
    }
}
