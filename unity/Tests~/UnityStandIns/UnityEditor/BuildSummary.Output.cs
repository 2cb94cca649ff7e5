using System;

namespace UnityEditor.Build.Reporting
{
    // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildSummary.html
    public partial struct BuildSummary
    {
        // https://docs.unity3d.com/ScriptReference/Build.Reporting.BuildSummary-outputPath.html
        public string outputPath => throw new NotImplementedException();
    }
}
