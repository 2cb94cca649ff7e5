using System;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    /// <summary>A tool whose task a test completes, as a Unity callback completes a compile's.</summary>
    internal static class LaterTools
    {
        public static TaskCompletionSource<string> Pending;

        [TetherTool("later_method", Description = "x")]
        public static Task<string> Later() => Pending.Task;
    }

    /// <summary>
    /// A tool's task completed on Unity's main thread, which has a SynchronizationContext of its
    /// own, must have its result read there and then: the call's outcome goes to the host loop
    /// from that callback, before Unity reloads the domain. An await's continuation is not run
    /// inline under such a context (it goes to the thread pool), so the result would race the reload.
    /// </summary>
    [TestFixture]
    public class InlineContinuationTests
    {
        /// <summary>Like Unity's: a context that is not the default one.</summary>
        private sealed class MainThreadLikeContext : SynchronizationContext
        {
            public override void Post(SendOrPostCallback callback, object state) => ThreadPool.QueueUserWorkItem(_ => callback(state));
        }

        /// <summary>Completes the tool's task under that context; says on which thread the invocation's own continuation ran.</summary>
        private static (bool inline, Task<object> invocation) CompleteUnderContext(Task<object> invocation, Action complete)
        {
            var here = Environment.CurrentManagedThreadId;
            var ranOn = -1;
            invocation.ContinueWith(_ => ranOn = Environment.CurrentManagedThreadId, CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            var before = SynchronizationContext.Current;
            SynchronizationContext.SetSynchronizationContext(new MainThreadLikeContext());
            try { complete(); }
            finally { SynchronizationContext.SetSynchronizationContext(before); }
            return (ranOn == here, invocation);
        }

        [Test]
        public void AToolMethodsResultIsReadOnTheThreadThatCompletesItsTask()
        {
            LaterTools.Pending = new TaskCompletionSource<string>();
            var tool = ToolFactory.FromMethod(typeof(LaterTools).GetMethod(nameof(LaterTools.Later)));
            var (inline, invocation) = CompleteUnderContext(tool.Invoke(new JObject(), new FakeToolContext()), () => LaterTools.Pending.TrySetResult("compiled"));
            Assert.That(inline, Is.True, "the result went on from the completing thread, not from the thread pool");
            Assert.That((string)tool.ToResult(invocation.Result)["content"][0]["text"], Is.EqualTo("compiled"));
        }

        [Test]
        public void AnAsyncFunctionToolsResultIsReadOnTheThreadThatCompletesItsTask()
        {
            var pending = new TaskCompletionSource<object>();
            var tool = ToolFactory.CreateAsync<NoArguments>(new TetherToolAttribute("later_function") { Description = "x" }, (args, context) => pending.Task);
            var (inline, invocation) = CompleteUnderContext(tool.Invoke(new JObject(), new FakeToolContext()), () => pending.TrySetResult("compiled"));
            Assert.That(inline, Is.True);
            Assert.That((string)tool.ToResult(invocation.Result)["content"][0]["text"], Is.EqualTo("compiled"));
        }

        [Test]
        public void AFailureOrACancellationEndsTheInvocationAsItEndedTheTool()
        {
            var failing = new TaskCompletionSource<object>();
            var tool = ToolFactory.CreateAsync<NoArguments>(new TetherToolAttribute("fails") { Description = "x" }, (args, context) => failing.Task);
            var (inline, invocation) = CompleteUnderContext(tool.Invoke(new JObject(), new FakeToolContext()), () => failing.TrySetException(new InvalidOperationException("no compiler")));
            Assert.That(inline, Is.True);
            Assert.That(invocation.Exception.InnerException, Is.TypeOf<InvalidOperationException>().With.Message.EqualTo("no compiler"));

            var cancelled = new TaskCompletionSource<object>();
            tool = ToolFactory.CreateAsync<NoArguments>(new TetherToolAttribute("cancelled") { Description = "x" }, (args, context) => cancelled.Task);
            (inline, invocation) = CompleteUnderContext(tool.Invoke(new JObject(), new FakeToolContext()), () => cancelled.TrySetCanceled());
            Assert.That(inline, Is.True);
            Assert.That(invocation.IsCanceled, Is.True);
        }
    }
}
