using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Camera.html
    public sealed partial class Camera : Behaviour
    {
        // https://docs.unity3d.com/ScriptReference/Camera-main.html
        public static Camera main => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Camera-targetTexture.html
        public RenderTexture targetTexture { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/Camera.Render.html
        public void Render() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/Texture.html
    public class Texture : Object
    {
    }

    // https://docs.unity3d.com/ScriptReference/Texture2D.html
    public sealed class Texture2D : Texture
    {
        // https://docs.unity3d.com/ScriptReference/Texture2D-ctor.html
        public Texture2D(int width, int height, TextureFormat textureFormat, bool mipChain) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Texture2D.ReadPixels.html
        public void ReadPixels(Rect source, int destX, int destY) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Texture2D.Apply.html
        public void Apply() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/RenderTexture.html
    public class RenderTexture : Texture
    {
        // https://docs.unity3d.com/ScriptReference/RenderTexture-ctor.html
        public RenderTexture(int width, int height, int depth) => throw new NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/RenderTexture-active.html
        public static RenderTexture active { get => throw new NotImplementedException(); set => throw new NotImplementedException(); }

        // https://docs.unity3d.com/ScriptReference/RenderTexture.Release.html
        public void Release() => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/ScriptReference/TextureFormat.html
    public enum TextureFormat
    {
        RGB24 = 3,
    }

    // https://docs.unity3d.com/ScriptReference/ImageConversion.html
    public static class ImageConversion
    {
        // https://docs.unity3d.com/ScriptReference/ImageConversion.EncodeToPNG.html
        public static byte[] EncodeToPNG(this Texture2D tex) => throw new NotImplementedException();
    }
}
