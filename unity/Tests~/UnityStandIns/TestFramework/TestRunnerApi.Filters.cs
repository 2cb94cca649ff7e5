// The Test Framework members run_tests' filters and results use (com.unity.test-framework 1.1).
namespace UnityEditor.TestTools.TestRunner.Api
{
    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.Filter.html
    public partial class Filter
    {
        public string[] testNames;
        public string[] categoryNames;
        public string[] assemblyNames;
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.ITestResultAdaptor.html
    public partial interface ITestResultAdaptor
    {
        string StackTrace { get; }
    }
}
