namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Rect.html
    public partial struct Rect
    {
        // https://docs.unity3d.com/ScriptReference/Rect-x.html (and -y, -width, -height)
        public float x { get => throw new System.NotImplementedException(); set => throw new System.NotImplementedException(); }
        public float y { get => throw new System.NotImplementedException(); set => throw new System.NotImplementedException(); }
        public float width { get => throw new System.NotImplementedException(); set => throw new System.NotImplementedException(); }
        public float height { get => throw new System.NotImplementedException(); set => throw new System.NotImplementedException(); }
    }
}
