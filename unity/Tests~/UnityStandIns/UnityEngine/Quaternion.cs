namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Quaternion.html
    public partial struct Quaternion
    {
        // https://docs.unity3d.com/ScriptReference/Quaternion-x.html (and -y, -z, -w)
        public float x;
        public float y;
        public float z;
        public float w;
    }
}
