using System;
using System.Collections.Generic;

// The Test Framework package (com.unity.test-framework 1.1, what Unity 2021.3 ships), assembly
// UnityEditor.TestRunner: https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.html
namespace UnityEditor.TestTools.TestRunner.Api
{
    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.TestRunnerApi.html
    public class TestRunnerApi : UnityEngine.ScriptableObject
    {
        public string Execute(ExecutionSettings executionSettings) => throw new NotImplementedException();
        public void RegisterCallbacks<T>(T testCallbacks, int priority = 0) where T : ICallbacks => throw new NotImplementedException();
        public void UnregisterCallbacks<T>(T testCallbacks) where T : ICallbacks => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.ExecutionSettings.html
    public class ExecutionSettings
    {
        public ExecutionSettings(params Filter[] filtersToExecute) => throw new NotImplementedException();
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.Filter.html
    public partial class Filter
    {
        public TestMode testMode;
        public string[] groupNames;
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.TestMode.html
    [Flags]
    public enum TestMode
    {
        EditMode = 1,
        PlayMode = 2,
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.ICallbacks.html
    public interface ICallbacks
    {
        void RunStarted(ITestAdaptor testsToRun);
        void RunFinished(ITestResultAdaptor result);
        void TestStarted(ITestAdaptor test);
        void TestFinished(ITestResultAdaptor result);
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.IErrorCallbacks.html
    public interface IErrorCallbacks : ICallbacks
    {
        void OnError(string message);
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.ITestAdaptor.html
    public interface ITestAdaptor
    {
        string FullName { get; }
        bool IsSuite { get; }
        int TestCaseCount { get; }
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.ITestResultAdaptor.html
    public partial interface ITestResultAdaptor
    {
        string FullName { get; }
        TestStatus TestStatus { get; }
        double Duration { get; }
        string Message { get; }
        bool HasChildren { get; }
        IEnumerable<ITestResultAdaptor> Children { get; }
    }

    // https://docs.unity3d.com/Packages/com.unity.test-framework@1.1/api/UnityEditor.TestTools.TestRunner.Api.TestStatus.html
    public enum TestStatus
    {
        Skipped,
        Passed,
        Failed,
        Inconclusive,
    }
}
