using System;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Protocol
{
    [TestFixture]
    public class JsonRpcConnectionTests
    {
        private const int WaitMs = 5000;

        private static Task<JToken> Answer(JToken value) => Task.FromResult(value);

        private static TetherException FailureOf(Task task)
        {
            var error = Assert.Throws<AggregateException>(() => task.Wait(WaitMs)).InnerException;
            Assert.That(error, Is.InstanceOf<TetherException>());
            return (TetherException)error;
        }

        private static void AssertError(JObject response, string code, object id)
        {
            Assert.That(response["error"], Is.Not.Null, response.ToString());
            Assert.That((string)response["error"]["data"]["code"], Is.EqualTo(code), response.ToString());
            Assert.That((int)response["error"]["code"], Is.EqualTo(ErrorCodes.NumberOf(code)));
            Assert.That(JToken.DeepEquals(response["id"], id == null ? JValue.CreateNull() : JToken.FromObject(id)), Is.True, response.ToString());
        }

        [Test]
        public void AnswersRequestsAndAnswersNothingWithAnEmptyObject()
        {
            using (var pair = RpcPair.Open(rpc => rpc
                .OnRequest("echo", (p, c) => Answer(new JObject { ["got"] = p, ["method"] = c.Method }))
                .OnRequest("nothing", (p, c) => Answer(null))
                .OnRequest("later", async (p, c) => { await Task.Delay(10); return new JObject { ["late"] = true }; })))
            {
                pair.Peer.Request(1, "echo", new JObject { ["a"] = 1 });
                pair.Peer.Request("two", "nothing");
                pair.Peer.Request(3, "later");
                Assert.That((int)pair.Peer.ResponseTo(1)["result"]["got"]["a"], Is.EqualTo(1));
                Assert.That(JToken.DeepEquals(pair.Peer.ResponseTo("two")["result"], new JObject()), Is.True);
                Assert.That((bool)pair.Peer.ResponseTo(3)["result"]["late"], Is.True);
            }
        }

        [Test]
        public void AnswersUnknownMethodsAndCarriesHandlerErrors()
        {
            using (var pair = RpcPair.Open(rpc => rpc
                .OnRequest("typed", (p, c) => throw new TetherException(ErrorCodes.NotFound, "No such thing.", new JObject { ["uri"] = "x://y" }))
                .OnRequest("plain", (p, c) => Task.FromException<JToken>(new InvalidOperationException("boom")))))
            {
                pair.Peer.Request(1, "nope");
                var unknown = pair.Peer.ResponseTo(1);
                AssertError(unknown, ErrorCodes.MethodNotFound, 1);
                Assert.That((string)unknown["error"]["data"]["method"], Is.EqualTo("nope"));
                pair.Peer.Request(2, "typed");
                var typed = pair.Peer.ResponseTo(2);
                AssertError(typed, ErrorCodes.NotFound, 2);
                Assert.That((string)typed["error"]["data"]["uri"], Is.EqualTo("x://y"));
                Assert.That((string)typed["error"]["message"], Is.EqualTo("No such thing."));
                pair.Peer.Request(3, "plain");
                var plain = pair.Peer.ResponseTo(3);
                AssertError(plain, ErrorCodes.InternalError, 3);
                Assert.That((string)plain["error"]["message"], Is.EqualTo("boom"));
            }
        }

        [Test]
        public void NumbersItsOwnRequestsAndMatchesTheAnswers()
        {
            using (var pair = RpcPair.Open())
            {
                var first = pair.Request("a");
                var second = pair.Request("b", new JObject { ["x"] = 1 });
                var third = pair.Request("c");
                var ids = new[] { pair.Peer.Next(), pair.Peer.Next(), pair.Peer.Next() }.Select(m => (long)m["id"]).ToArray();
                Assert.That(ids, Is.EqualTo(new[] { 1L, 2L, 3L }));
                pair.Peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = 2, ["result"] = new JObject { ["b"] = true } });
                pair.Peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = 99, ["result"] = new JObject() });
                pair.Peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = 1.0, ["error"] = new JObject { ["code"] = -32030, ["message"] = "gone", ["data"] = new JObject { ["code"] = "NOT_FOUND" } } });
                Assert.That((bool)second.Result["b"], Is.True);
                Assert.That(FailureOf(first).Code, Is.EqualTo(ErrorCodes.NotFound));
                Assert.That(third.IsCompleted, Is.False);
            }
        }

        [Test]
        public void TellsAHandlerItsRequestWasCancelledByThePeer()
        {
            var cancelled = new TaskCompletionSource<bool>();
            using (var pair = RpcPair.Open(rpc => rpc.OnRequest("wait", (p, c) =>
            {
                c.Abandoned.Register(() => cancelled.TrySetResult(true));
                return new TaskCompletionSource<JToken>().Task;
            })))
            {
                pair.Peer.Request("w1", "wait");
                pair.Peer.Notify("notifications/cancelled", new JObject { ["requestId"] = "w1", ["reason"] = "changed my mind" });
                Assert.That(cancelled.Task.Wait(WaitMs), Is.True);
            }
        }

        [Test]
        public void AbandonsItsOwnRequestWithNotificationsCancelledOnCancellationOrTimeout()
        {
            using (var pair = RpcPair.Open())
            using (var source = new CancellationTokenSource())
            {
                var request = pair.Request("slow", null, source.Token);
                var sent = pair.Peer.Next();
                source.Cancel();
                Assert.That(FailureOf(request).Code, Is.EqualTo(ErrorCodes.Cancelled));
                var cancel = pair.Peer.NotificationOf("notifications/cancelled");
                Assert.That(JToken.DeepEquals(cancel["params"]["requestId"], sent["id"]), Is.True);

                var timed = pair.Request("slower", null, default, 100);
                var second = pair.Peer.Next();
                var error = FailureOf(timed);
                Assert.That(error.Code, Is.EqualTo(ErrorCodes.RequestTimeout));
                Assert.That((long)error.Data["timeoutMs"], Is.EqualTo(100));
                Assert.That(JToken.DeepEquals(pair.Peer.NotificationOf("notifications/cancelled")["params"]["requestId"], second["id"]), Is.True);
                // A late answer is ignored.
                pair.Peer.Send(new JObject { ["jsonrpc"] = "2.0", ["id"] = second["id"], ["result"] = new JObject() });
                pair.Peer.Request(9, "nothing-here");
                AssertError(pair.Peer.ResponseTo(9), ErrorCodes.MethodNotFound, 9);
            }
        }

        [Test]
        public void ClosingFailsPendingRequestsAbandonsHandlersAndIsIdempotent()
        {
            var abandoned = new TaskCompletionSource<TetherException>();
            int closes = 0;
            using (var pair = RpcPair.Open(rpc => rpc
                .OnRequest("wait", (p, c) =>
                {
                    c.Abandoned.Register(() => abandoned.TrySetResult(c.AbandonedReason));
                    return new TaskCompletionSource<JToken>().Task;
                })
                .OnClose(error => Interlocked.Increment(ref closes))))
            {
                pair.Peer.Request(1, "wait");
                var pending = pair.Request("ours");
                pair.Peer.Next();
                var reason = new TetherException(ErrorCodes.Evicted, "Another client took over.");
                pair.On(c => { c.Close(reason); c.Close(); });
                var failure = FailureOf(pending);
                Assert.That(failure.Code, Is.EqualTo(ErrorCodes.ConnectionClosed));
                Assert.That(failure.Message, Does.Contain("Another client took over."));
                Assert.That(abandoned.Task.Wait(WaitMs), Is.True);
                Assert.That(abandoned.Task.Result.Code, Is.EqualTo(ErrorCodes.ConnectionClosed));
                Assert.That(pair.On(c => c.Notify("late")), Is.False);
                Assert.That(FailureOf(pair.Request("after")).Code, Is.EqualTo(ErrorCodes.ConnectionClosed));
                pair.Peer.ExpectClosed();
                Assert.That(closes, Is.EqualTo(1));
                Assert.That(pair.On(c => c.ClosedWith), Is.SameAs(reason));
            }
        }

        [Test]
        public void RefusingAnswersFirstThenClosesAndDispatchesNothingElse()
        {
            int handled = 0;
            using (var pair = RpcPair.Open(rpc => rpc
                .OnRequest("refuse", (p, c) =>
                {
                    var error = new TetherException(ErrorCodes.Unauthorized, "No.");
                    c.Connection.Refuse(error);
                    throw error;
                })
                .OnRequest("count", (p, c) => { handled++; return Answer(null); })))
            {
                // Both frames in one write: the second is already received when the first is refused.
                var refuse = FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = "refuse" }, long.MaxValue);
                var count = FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = 2, ["method"] = "count" }, long.MaxValue);
                pair.Peer.Write(refuse.Concat(count).ToArray());
                AssertError(pair.Peer.ResponseTo(1), ErrorCodes.Unauthorized, 1);
                pair.Peer.ExpectClosed();
                Assert.That(pair.Peer.Seen.Count, Is.EqualTo(1));
                Assert.That(handled, Is.EqualTo(0));
            }
        }

        [Test]
        public void AnswersFrameTooLargeInPlaceOfAResultThePeerCannotReadAndServesOn()
        {
            using (var pair = RpcPair.Open(rpc => rpc.OnRequest("big", (p, c) => Answer(new JObject { ["text"] = new string('x', 200_000) }))))
            {
                pair.On(c => c.PeerAuthenticated(65_536));
                pair.Peer.Request(1, "big");
                var answer = pair.Peer.ResponseTo(1);
                AssertError(answer, ErrorCodes.FrameTooLarge, 1);
                Assert.That((bool)answer["error"]["data"]["handled"], Is.True);
                Assert.That((string)answer["error"]["data"]["method"], Is.EqualTo("big"));
                Assert.That(pair.On(c => c.Notify("too-big", new JObject { ["t"] = new string('y', 70_000) })), Is.False, "an oversize notification is dropped");
                pair.Peer.Request(2, "missing");
                AssertError(pair.Peer.ResponseTo(2), ErrorCodes.MethodNotFound, 2);
            }
        }

        [Test]
        public void KeepsServingAfterABodyThatIsNotJsonOrNotAMessage()
        {
            using (var pair = RpcPair.Open(rpc => rpc.OnRequest("ping", (p, c) => Answer(new JObject()))))
            {
                pair.Peer.Write(FrameEncoder.Frame("{\"jsonrpc\":\"2.0\",\"id\":7,", long.MaxValue));
                AssertError(pair.Peer.Next(), ErrorCodes.ParseError, null);
                pair.Peer.Write(FrameEncoder.Frame("", long.MaxValue));
                AssertError(pair.Peer.Next(), ErrorCodes.ParseError, null);
                pair.Peer.Write(new byte[] { (byte)'C', (byte)'o', (byte)'n', (byte)'t', (byte)'e', (byte)'n', (byte)'t', (byte)'-', (byte)'L', (byte)'e', (byte)'n', (byte)'g', (byte)'t', (byte)'h', (byte)':', (byte)' ', (byte)'3', 13, 10, 13, 10, (byte)'"', 0xFF, (byte)'"' });
                AssertError(pair.Peer.Next(), ErrorCodes.ParseError, null);
                pair.Peer.Write(FrameEncoder.Frame("{\"jsonrpc\":\"1.0\",\"id\":8,\"method\":\"ping\"}", long.MaxValue));
                AssertError(pair.Peer.Next(), ErrorCodes.InvalidRequest, 8);
                pair.Peer.Write(FrameEncoder.Frame("[{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}]", long.MaxValue));
                AssertError(pair.Peer.Next(), ErrorCodes.InvalidRequest, null);
                pair.Peer.Request(10, "ping");
                Assert.That(pair.Peer.ResponseTo(10)["result"], Is.Not.Null);
                Assert.That(pair.Peer.IsClosed, Is.False);
            }
        }

        [TestCase("Content-Length: twelve\r\n\r\n{}", ErrorCodes.HeaderInvalid)]
        [TestCase("Content-Length: 2000000\r\n\r\n", ErrorCodes.FrameTooLarge)]
        public void AnswersAFramingFaultWithAnIdNullErrorAfterTheFramesBeforeItThenCloses(string fault, string code)
        {
            using (var pair = RpcPair.Open(rpc => rpc.OnRequest("ping", (p, c) => Answer(new JObject())), new FrameLimits { MaxFrameBytes = 1_000_000 }))
            {
                var ping = FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = "ping" }, long.MaxValue);
                pair.Peer.Write(ping.Concat(System.Text.Encoding.ASCII.GetBytes(fault)).ToArray());
                Assert.That(pair.Peer.Next()["result"], Is.Not.Null, "the ping before the fault is answered first");
                AssertError(pair.Peer.Next(), code, null);
                pair.Peer.ExpectClosed();
                Assert.That(pair.On(c => c.ClosedWith.Code), Is.EqualTo(code));
            }
        }

        [Test]
        public void TimesOutOnlyAPartialFrameAndRestartsTheClockOnEveryChunk()
        {
            const int timeoutMs = 300;
            using (var pair = RpcPair.Open(rpc => rpc.OnRequest("ping", (p, c) => Answer(new JObject())), new FrameLimits { FrameTimeoutMs = timeoutMs }))
            {
                // Idle for twice the timeout: nothing happens.
                Assert.That(pair.Peer.Closed.Wait(2 * timeoutMs), Is.False, "an idle connection was closed");
                // A frame trickling in, never quiet for the timeout, though slower than it in all.
                var frame = FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = "ping" }, long.MaxValue);
                var watch = Stopwatch.StartNew();
                foreach (var part in new[] { 0, 10, 20, 30, 40 })
                {
                    pair.Peer.Write(frame.Skip(part).Take(10).ToArray());
                    Thread.Sleep(timeoutMs / 3);
                }
                pair.Peer.Write(frame.Skip(50).ToArray());
                Assert.That(watch.ElapsedMilliseconds, Is.GreaterThan(timeoutMs));
                Assert.That(pair.Peer.ResponseTo(1)["result"], Is.Not.Null);
                // A partial frame that stalls: FRAME_TIMEOUT, no sooner than the timeout, then the close.
                watch.Restart();
                pair.Peer.Write("Content-Length: 64\r\n\r\n{\"jsonrpc\":\"2.0\",");
                var fault = pair.Peer.Next();
                AssertError(fault, ErrorCodes.FrameTimeout, null);
                Assert.That(watch.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(timeoutMs - 20));
                Assert.That((int)fault["error"]["data"]["frameTimeoutMs"], Is.EqualTo(timeoutMs));
                pair.Peer.ExpectClosed();
            }
        }
    }
}
