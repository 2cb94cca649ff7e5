namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Vector4.html
    public partial struct Vector4
    {
        // https://docs.unity3d.com/ScriptReference/Vector4-x.html (and -y, -z, -w)
        public float x;
        public float y;
        public float z;
        public float w;

        // https://docs.unity3d.com/ScriptReference/Vector4-ctor.html
        public Vector4(float x, float y, float z, float w)
        {
            this.x = x;
            this.y = y;
            this.z = z;
            this.w = w;
        }
    }
}
