using System;
using UnityEngine.Rendering;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Shader.html
    public sealed partial class Shader : Object
    {
        // https://docs.unity3d.com/ScriptReference/Shader.Find.html
        public static Shader Find(string name) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyCount.html
        public int GetPropertyCount() => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyName.html
        public string GetPropertyName(int propertyIndex) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyType.html
        public ShaderPropertyType GetPropertyType(int propertyIndex) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyDescription.html
        public string GetPropertyDescription(int propertyIndex) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyFlags.html
        public ShaderPropertyFlags GetPropertyFlags(int propertyIndex) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Shader.GetPropertyRangeLimits.html
        public Vector2 GetPropertyRangeLimits(int propertyIndex) => throw new NotImplementedException();
    }
}

namespace UnityEngine.Rendering
{
    // https://docs.unity3d.com/ScriptReference/Rendering.ShaderPropertyType.html
    public enum ShaderPropertyType
    {
        Color = 0,
        Vector = 1,
        Float = 2,
        Range = 3,
        Texture = 4,
        Int = 5,
    }

    // https://docs.unity3d.com/ScriptReference/Rendering.ShaderPropertyFlags.html
    [Flags]
    public enum ShaderPropertyFlags
    {
        None = 0,
        HideInInspector = 1,
        PerRendererData = 2,
        NoScaleOffset = 4,
        Normal = 8,
        HDR = 16,
        Gamma = 32,
        NonModifiableTextureData = 64,
        MainTexture = 128,
        MainColor = 256,
    }
}
