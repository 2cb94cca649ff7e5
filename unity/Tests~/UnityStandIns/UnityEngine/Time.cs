using System;

namespace UnityEngine
{
    // https://docs.unity3d.com/ScriptReference/Time.html
    public class Time
    {
        // https://docs.unity3d.com/ScriptReference/Time-frameCount.html
        public static int frameCount => throw new NotImplementedException();
    }
}
