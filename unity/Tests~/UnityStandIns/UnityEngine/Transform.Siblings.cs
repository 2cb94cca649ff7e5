namespace UnityEngine
{
    public partial class Transform
    {
        // https://docs.unity3d.com/ScriptReference/Transform.GetSiblingIndex.html
        public int GetSiblingIndex() => throw new System.NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Transform.SetSiblingIndex.html
        public void SetSiblingIndex(int index) => throw new System.NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/Transform.SetAsLastSibling.html
        public void SetAsLastSibling() => throw new System.NotImplementedException();
    }
}
