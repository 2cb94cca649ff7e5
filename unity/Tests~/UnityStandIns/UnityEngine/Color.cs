namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Color.html
    public partial struct Color
    {
        // https://docs.unity3d.com/ScriptReference/Color-r.html (and -g, -b, -a)
        public float r;
        public float g;
        public float b;
        public float a;

        // https://docs.unity3d.com/ScriptReference/Color-ctor.html
        public Color(float r, float g, float b, float a)
        {
            this.r = r;
            this.g = g;
            this.b = b;
            this.a = a;
        }
    }
}
