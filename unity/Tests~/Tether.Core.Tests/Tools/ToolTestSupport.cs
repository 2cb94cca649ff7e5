using System;
using System.Collections.Generic;
using System.IO;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    /// <summary>The JSON files under unity/Tests~/fixtures.</summary>
    internal static class Fixtures
    {
        public static JObject Read(string name) => JObject.Parse(File.ReadAllText(Path.Combine(Folder(), name)));

        private static string Folder([CallerFilePath] string source = "")
        {
            // This file is unity/Tests~/Tether.Core.Tests/Tools/ToolTestSupport.cs.
            var testsRoot = Path.GetDirectoryName(Path.GetDirectoryName(Path.GetDirectoryName(source)));
            return Path.Combine(testsRoot, "fixtures");
        }

        /// <summary>The descriptor named <paramref name="name"/> in a { tools: [...] } fixture.</summary>
        public static JObject Tool(JObject fixture, string name)
        {
            foreach (var tool in (JArray)fixture["tools"]) if ((string)tool["name"] == name) return (JObject)tool;
            throw new AssertionException("No tool " + name + " in the fixture.");
        }
    }

    /// <summary>Asserts JSON equality (key order aside) with a readable failure.</summary>
    internal static class JsonAssert
    {
        public static void AreEqual(JToken expected, JToken actual, string what = "")
        {
            if (!JToken.DeepEquals(expected, actual))
            {
                Assert.Fail(what + "\nexpected: " + expected?.ToString() + "\nactual:   " + actual?.ToString());
            }
        }
    }

    internal static class TetherAssert
    {
        /// <summary>The TetherException <paramref name="action"/> throws, with the code expected.</summary>
        public static TetherException Throws(string code, TestDelegate action)
        {
            var error = Assert.Throws<TetherException>(action);
            Assert.That(error.Code, Is.EqualTo(code), error.Message);
            return error;
        }

        public static TetherException ThrowsAsync(string code, Func<Task> action)
        {
            var error = Assert.ThrowsAsync<TetherException>(async () => await action());
            Assert.That(error.Code, Is.EqualTo(code), error.Message);
            return error;
        }
    }

    /// <summary>A tool context that records what the tool did and answers elicitation and sampling as told.</summary>
    internal sealed class FakeToolContext : IToolContext
    {
        private readonly CancellationTokenSource _cancellation = new CancellationTokenSource();

        public string CallId { get; set; } = "call-1";
        public CancellationToken Cancellation => _cancellation.Token;
        public TetherException CancellationReason { get; private set; }
        public readonly List<(double? Progress, double? Total, string Message)> ProgressReports = new List<(double?, double?, string)>();
        public readonly List<(string Level, JToken Data, string Logger)> Logs = new List<(string, JToken, string)>();
        public readonly List<(string Message, JObject Schema)> Elicitations = new List<(string, JObject)>();
        public readonly List<JObject> Samplings = new List<JObject>();
        public JObject ElicitAnswer = new JObject { ["action"] = "accept", ["content"] = new JObject { ["username"] = "ada", ["email"] = "ada@example.com" } };
        public JToken SampleAnswer = new JObject { ["role"] = "assistant", ["content"] = new JObject { ["type"] = "text", ["text"] = "Paris" } };

        public void Cancel(string code = ErrorCodes.Cancelled)
        {
            CancellationReason = new TetherException(code, "cancelled by the test");
            _cancellation.Cancel();
        }

        public void CancelAfter(int ms)
        {
            CancellationReason = new TetherException(ErrorCodes.Cancelled, "cancelled by the test");
            _cancellation.CancelAfter(ms);
        }

        public void ThrowIfCancelled()
        {
            if (_cancellation.IsCancellationRequested) throw CancellationReason;
        }

        public void Progress(double? progress = null, double? total = null, string message = null) => ProgressReports.Add((progress, total, message));

        public void Log(string level, JToken data, string logger = null) => Logs.Add((level, data, logger));

        public Task<JObject> Elicit(string message, JObject requestedSchema)
        {
            Elicitations.Add((message, requestedSchema));
            return Task.FromResult(ElicitAnswer);
        }

        public Task<JToken> Sample(JObject parameters)
        {
            Samplings.Add(parameters);
            return Task.FromResult(SampleAnswer);
        }
    }
}
