namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Vector2.html
    public partial struct Vector2
    {
        // https://docs.unity3d.com/ScriptReference/Vector2-x.html (and -y)
        public float x;
        public float y;
    }
}
