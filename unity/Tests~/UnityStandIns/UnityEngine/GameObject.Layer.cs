namespace UnityEngine
{
    public sealed partial class GameObject
    {
        // https://docs.unity3d.com/ScriptReference/GameObject-layer.html
        public int layer { get => throw new System.NotImplementedException(); set => throw new System.NotImplementedException(); }
    }
}
