namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Vector2Int.html
    public partial struct Vector2Int
    {
        // https://docs.unity3d.com/ScriptReference/Vector2Int-x.html (and -y)
        public int x { get; set; }
        public int y { get; set; }
    }
}
