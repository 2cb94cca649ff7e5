namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Vector3Int.html
    public partial struct Vector3Int
    {
        // https://docs.unity3d.com/ScriptReference/Vector3Int-x.html (and -y, -z)
        public int x { get; set; }
        public int y { get; set; }
        public int z { get; set; }
    }
}
