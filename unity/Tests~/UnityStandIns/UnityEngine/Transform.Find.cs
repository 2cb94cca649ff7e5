namespace UnityEngine
{
    public partial class Transform
    {
        // https://docs.unity3d.com/ScriptReference/Transform.Find.html
        public Transform Find(string n) => throw new System.NotImplementedException();
    }
}
