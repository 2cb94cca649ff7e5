namespace UnityEditor.MPE
{
    // https://docs.unity3d.com/2021.3/Documentation/ScriptReference/MPE.ProcessLevel.html
    // (values as in UnityEditor.CoreModule 2021.3; the obsolete aliases left out)
    public enum ProcessLevel
    {
        Undefined = 0,
        Main = 1,
        Secondary = 2,
    }

    // https://docs.unity3d.com/2021.3/Documentation/ScriptReference/MPE.ProcessService.html
    public static class ProcessService
    {
        // https://docs.unity3d.com/2021.3/Documentation/ScriptReference/MPE.ProcessService-level.html
        public static ProcessLevel level => ProcessLevel.Main;
    }
}
