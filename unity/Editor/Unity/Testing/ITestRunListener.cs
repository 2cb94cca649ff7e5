namespace Tether.Unity.Testing
{
    /// <summary>The run_tests call following a test run (progress per test, the summary at the end). Called on the main thread.</summary>
    internal interface ITestRunListener
    {
        void RunStarted(int testCount);

        void TestStarted(string fullName);

        void TestFinished(TestCaseResult result);

        void RunFinished(TestRunSummary summary);

        /// <summary>The run failed before it could finish (IErrorCallbacks.OnError: a build error, an IPrebuildSetup's failure): no RunFinished follows.</summary>
        void RunFailed(string message);
    }
}
