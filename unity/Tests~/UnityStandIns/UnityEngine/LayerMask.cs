namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/LayerMask.html
    public partial struct LayerMask
    {
        // https://docs.unity3d.com/ScriptReference/LayerMask.NameToLayer.html
        public static int NameToLayer(string layerName) => throw new System.NotImplementedException();

        // https://docs.unity3d.com/ScriptReference/LayerMask.LayerToName.html
        public static string LayerToName(int layer) => throw new System.NotImplementedException();
    }
}
