using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tests.Protocol
{
    [TestFixture]
    public class FrameDecoderTests
    {
        private static readonly FrameLimits Limits = new FrameLimits { MaxFrameBytes = 1024 * 1024, MaxHeaderBytes = 1024 };

        private static byte[] Bytes(string text) => Encoding.UTF8.GetBytes(text);

        private static byte[] Concat(params byte[][] parts) => parts.SelectMany(p => p).ToArray();

        private static byte[] RawFrame(string header, string body) => Concat(Bytes(header + "\r\n\r\n"), Bytes(body));

        private static byte[] Frame(string body) => FrameEncoder.Frame(body, long.MaxValue);

        private static List<string> Texts(IEnumerable<byte[]> bodies) => bodies.Select(b => Encoding.UTF8.GetString(b)).ToList();

        private static List<byte[]> OneByteAtATime(FrameDecoder decoder, byte[] data)
        {
            var bodies = new List<byte[]>();
            for (int i = 0; i < data.Length; i++) bodies.AddRange(decoder.Push(data, i, 1));
            return bodies;
        }

        private static TetherException Fault(Action push, string code)
        {
            var error = Assert.Throws<TetherException>(() => push());
            Assert.That(error.Code, Is.EqualTo(code));
            return error;
        }

        private const string M1 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        private const string M2 = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{\"a\":[1,2,3]}}";
        private const string M3 = "{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"result\":{\"ok\":true}}";

        [Test]
        public void DecodesFramesMergedIntoOneChunkInOrder()
        {
            var decoder = new FrameDecoder(Limits);
            Assert.That(Texts(decoder.Push(Concat(Frame(M1), Frame(M2), Frame(M3)))), Is.EqualTo(new[] { M1, M2, M3 }));
            Assert.That(decoder.HasPartialFrame, Is.False);
        }

        [Test]
        public void DecodesAFrameSplitInTheHeaderAtTheBlankLineAndInTheBody()
        {
            var data = Frame(M2);
            int headerEnd = Encoding.ASCII.GetString(data).IndexOf("\r\n\r\n", StringComparison.Ordinal);
            foreach (var cut in new[] { 3, headerEnd, headerEnd + 1, headerEnd + 2, headerEnd + 3, headerEnd + 4, headerEnd + 10, data.Length - 1 })
            {
                var decoder = new FrameDecoder(Limits);
                Assert.That(decoder.Push(data, 0, cut), Is.Empty, $"cut at {cut}");
                Assert.That(decoder.HasPartialFrame, Is.True);
                Assert.That(Texts(decoder.Push(data, cut, data.Length - cut)), Is.EqualTo(new[] { M2 }), $"cut at {cut}");
                Assert.That(decoder.HasPartialFrame, Is.False);
            }
        }

        [Test]
        public void DecodesFramesFedOneByteAtATime()
        {
            Assert.That(Texts(OneByteAtATime(new FrameDecoder(Limits), Concat(Frame(M1), Frame(M2), Frame(M3)))), Is.EqualTo(new[] { M1, M2, M3 }));
        }

        [Test]
        public void AnyChunkingYieldsTheSameBodies()
        {
            var random = new Random(7);
            var stream = Concat(Frame(M1), Frame("{\"s\":\"héllo ✓ 日本語 😀\"}"), RawFrame("Content-Length: 0", ""), Frame(M3));
            for (int run = 0; run < 200; run++)
            {
                var decoder = new FrameDecoder(Limits);
                var got = new List<byte[]>();
                for (int at = 0; at < stream.Length;)
                {
                    int size = Math.Min(stream.Length - at, random.Next(1, 40));
                    got.AddRange(decoder.Push(stream, at, size));
                    at += size;
                }
                Assert.That(Texts(got), Is.EqualTo(new[] { M1, "{\"s\":\"héllo ✓ 日本語 😀\"}", "", M3 }));
                Assert.That(decoder.HasPartialFrame, Is.False);
            }
        }

        [Test]
        public void AcceptsContentLengthInAnyCaseWithSpacesAndOtherHeaders()
        {
            foreach (var name in new[] { "content-length", "CONTENT-LENGTH", "cOnTeNt-LeNgTh" })
                Assert.That(Texts(new FrameDecoder(Limits).Push(RawFrame(name + ":5", "hello"))), Is.EqualTo(new[] { "hello" }), name);
            Assert.That(Texts(new FrameDecoder(Limits).Push(RawFrame("Content-Length:   5   ", "hello"))), Is.EqualTo(new[] { "hello" }));
            var data = Concat(RawFrame("X-Trace: 42\r\nContent-Length: 2", "{}"), RawFrame("Content-Length: 4\r\nX-Other: a:b:c", "null"));
            Assert.That(Texts(new FrameDecoder(Limits).Push(data)), Is.EqualTo(new[] { "{}", "null" }));
            Assert.That(Texts(new FrameDecoder(Limits).Push(RawFrame("Content-Length: 9\r\nContent-Length: 2", "{}"))), Is.EqualTo(new[] { "{}" }), "the last Content-Length counts");
            Assert.That(Texts(new FrameDecoder(Limits).Push(RawFrame("Content-Length: 0002", "{}"))), Is.EqualTo(new[] { "{}" }), "leading zeros");
        }

        [Test]
        public void AcceptsAUtf8CharsetOrNoneAndRefusesAnyOther()
        {
            foreach (var type in new[] { "application/vscode-jsonrpc; charset=utf-8", "application/json; charset=UTF-8", "application/json; charset=utf8", "application/json; charset=\"utf-8\"", "application/json" })
                Assert.That(Texts(new FrameDecoder(Limits).Push(RawFrame("Content-Length: 2\r\nContent-Type: " + type, "{}"))), Is.EqualTo(new[] { "{}" }), type);
            foreach (var charset in new[] { "iso-8859-1", "utf-16", "UTF-16LE", "ascii", "latin1" })
                Fault(() => new FrameDecoder(Limits).Push(RawFrame("Content-Length: 2\r\nContent-Type: application/json; charset=" + charset, "{}")), ErrorCodes.HeaderInvalid);
        }

        [Test]
        public void RefusesMissingOrMalformedContentLengthAndLinesWithoutAColon()
        {
            var missing = Fault(() => new FrameDecoder(Limits).Push(RawFrame("Content-Type: application/json", "{}")), ErrorCodes.HeaderInvalid);
            Assert.That(missing.Message, Does.Contain("Content-Length"));
            Fault(() => new FrameDecoder(Limits).Push(Bytes("\r\n\r\n{}")), ErrorCodes.HeaderInvalid);
            foreach (var value in new[] { "abc", "-1", "+1", "1.5", "0x10", "1e3", "", "5 5", "1234567890123456" })
                Fault(() => new FrameDecoder(Limits).Push(RawFrame("Content-Length: " + value, "{}")), ErrorCodes.HeaderInvalid);
            Fault(() => new FrameDecoder(Limits).Push(RawFrame("Content-Length: 2\r\ngarbage", "{}")), ErrorCodes.HeaderInvalid);
            Fault(() => new FrameDecoder(Limits).Push(RawFrame(": value\r\nContent-Length: 2", "{}")), ErrorCodes.HeaderInvalid);
        }

        [Test]
        public void SixteenDigitsFailOnTheFastPathAsOnTheGeneralOne()
        {
            foreach (var name in new[] { "Content-Length: ", "content-length: " })
            {
                var error = Fault(() => new FrameDecoder(Limits).Push(Bytes(name + "0000000000000001\r\n\r\n{")), ErrorCodes.HeaderInvalid);
                Assert.That(error.Message, Does.Contain("is not a byte count"), name);
                Assert.That(Texts(new FrameDecoder(Limits).Push(Bytes(name + "000000000000001\r\n\r\n{"))), Is.EqualTo(new[] { "{" }), name + " fifteen digits");
            }
        }

        [Test]
        public void TakesAHeaderOfExactlyMaxHeaderBytesAndRefusesOneByteMore()
        {
            var limits = new FrameLimits { MaxFrameBytes = 1000, MaxHeaderBytes = 64 };
            const string prefix = "Content-Length: 2\r\nX-Pad: ";
            var exact = prefix + new string('a', limits.MaxHeaderBytes - prefix.Length);
            Assert.That(Texts(OneByteAtATime(new FrameDecoder(limits), RawFrame(exact, "{}"))), Is.EqualTo(new[] { "{}" }));
            Assert.That(Texts(new FrameDecoder(limits).Push(RawFrame(exact, "{}"))), Is.EqualTo(new[] { "{}" }));
            var error = Fault(() => new FrameDecoder(limits).Push(RawFrame(exact + "a", "{}")), ErrorCodes.HeaderInvalid);
            Assert.That(error.Data["maxHeaderBytes"].Value<int>(), Is.EqualTo(64));
            Fault(() => OneByteAtATime(new FrameDecoder(limits), RawFrame(exact + "a", "{}")), ErrorCodes.HeaderInvalid);
        }

        [Test]
        public void AHeaderWithBareLineFeedsNeverEndsAndFailsBeforeBufferingMuchMore()
        {
            var limits = new FrameLimits { MaxFrameBytes = 1000, MaxHeaderBytes = 64 };
            var decoder = new FrameDecoder(limits);
            var endless = Bytes("Content-Length: 2\n\n" + new string('x', 1000));
            int fedWhenThrown = -1;
            for (int i = 0; i < endless.Length && fedWhenThrown < 0; i++)
            {
                try { decoder.Push(endless, i, 1); }
                catch (TetherException error)
                {
                    Assert.That(error.Code, Is.EqualTo(ErrorCodes.HeaderInvalid));
                    fedWhenThrown = i + 1;
                }
            }
            Assert.That(fedWhenThrown, Is.GreaterThan(0).And.LessThanOrEqualTo(limits.MaxHeaderBytes + 4));
        }

        [Test]
        public void RefusesAnOversizeFrameAtItsHeaderBeforeAnyBodyByte()
        {
            var limits = new FrameLimits { MaxFrameBytes = 100, MaxHeaderBytes = 64 };
            Assert.That(Texts(new FrameDecoder(limits).Push(RawFrame("Content-Length: 100", new string('y', 100)))), Is.EqualTo(new[] { new string('y', 100) }));
            var decoder = new FrameDecoder(limits);
            var header = Bytes("Content-Length: 101\r\n\r\n");
            for (int i = 0; i < header.Length - 1; i++) Assert.That(decoder.Push(header, i, 1), Is.Empty);
            var error = Fault(() => decoder.Push(header, header.Length - 1, 1), ErrorCodes.FrameTooLarge);
            Assert.That(JToken.DeepEquals(error.Data, new JObject { ["length"] = 101, ["maxFrameBytes"] = 100 }), Is.True, error.Data.ToString());
            var huge = Fault(() => new FrameDecoder(Limits).Push(Bytes("Content-Length: 999999999999999\r\n\r\n")), ErrorCodes.FrameTooLarge);
            Assert.That(huge.Data["length"].Value<long>(), Is.EqualTo(999999999999999L));
        }

        [Test]
        public void BeforeTheHandshakeTakes64KiBAndAfterItTheFullLimit()
        {
            var limits = new FrameLimits { MaxFrameBytes = 1024 * 1024, MaxHeaderBytes = 1024, MaxFrameBytesBeforeHandshake = FrameLimits.HandshakeMaxFrameBytes };
            var stranger = new FrameDecoder(limits);
            var error = Fault(() => stranger.Push(Bytes("Content-Length: 65537\r\n\r\n")), ErrorCodes.FrameTooLarge);
            Assert.That((bool)error.Data["beforeHandshake"], Is.True);
            Assert.That((long)error.Data["maxFrameBytes"], Is.EqualTo(65536));
            Assert.That(error.Message, Does.Contain("Send tether/hello first"));
            var body = new string('z', 65536);
            Assert.That(Texts(new FrameDecoder(limits).Push(RawFrame("Content-Length: 65536", body))), Is.EqualTo(new[] { body }));
            var trusted = new FrameDecoder(limits);
            trusted.TrustPeer();
            var large = new string('w', 200_000);
            Assert.That(Texts(trusted.Push(RawFrame("Content-Length: 200000", large))), Is.EqualTo(new[] { large }));
        }

        [Test]
        public void TracksEveryStageOfAPartialFrame()
        {
            var decoder = new FrameDecoder(Limits);
            Assert.That(decoder.HasPartialFrame, Is.False);
            decoder.Push(Bytes("Content-"));
            Assert.That(decoder.HasPartialFrame, Is.True, "part of a header");
            decoder.Push(Bytes("Length: 3\r\n\r\n"));
            Assert.That(decoder.HasPartialFrame, Is.True, "header, no body yet");
            decoder.Push(Bytes("12"));
            Assert.That(decoder.HasPartialFrame, Is.True, "part of the body");
            Assert.That(Texts(decoder.Push(Bytes("3"))), Is.EqualTo(new[] { "123" }));
            Assert.That(decoder.HasPartialFrame, Is.False, "idle between frames");
        }

        [Test]
        public void CountsContentLengthInBytesAndKeepsABodyHoldingABlankLine()
        {
            var text = "{\"s\":\"héllo wörld ✓ 日本語 😀\"}";
            var data = Concat(Frame(text), Frame("\"a\r\n\r\nb\""), Frame("1"));
            Assert.That(Texts(new FrameDecoder(Limits).Push(data)), Is.EqualTo(new[] { text, "\"a\r\n\r\nb\"", "1" }));
            Assert.That(Texts(OneByteAtATime(new FrameDecoder(Limits), data)), Is.EqualTo(new[] { text, "\"a\r\n\r\nb\"", "1" }));
        }

        [Test]
        public void FramesCompleteBeforeAFaultComeFirstAndTheFaultWithTheNextPush()
        {
            var decoder = new FrameDecoder(Limits);
            var bodies = decoder.Push(Concat(Frame(M1), Frame(M3), Bytes("Content-Length: x\r\n\r\n")));
            Assert.That(Texts(bodies), Is.EqualTo(new[] { M1, M3 }));
            Fault(() => decoder.Push(new byte[0]), ErrorCodes.HeaderInvalid);
            Fault(() => decoder.Push(Frame(M1)), ErrorCodes.HeaderInvalid);
        }

        [Test]
        public void ReceivesALargeBodyExactlyWhereverItIsSplitTrustedOrNot()
        {
            var limits = new FrameLimits { MaxFrameBytes = 8 * 1024 * 1024, MaxHeaderBytes = 1024 };
            var big = "{\"text\":\"" + string.Concat(Enumerable.Repeat("é\\\"x", 400_000)) + "\"}";
            var stream = Concat(Frame(M1), Frame(big), Frame(M2));
            var random = new Random(3);
            foreach (var trusted in new[] { false, true })
            {
                for (int run = 0; run < 10; run++)
                {
                    var decoder = new FrameDecoder(limits);
                    if (trusted) decoder.TrustPeer();
                    var cuts = Enumerable.Range(0, 8).Select(_ => random.Next(1, stream.Length - 1)).Concat(new[] { 0, stream.Length }).Distinct().OrderBy(c => c).ToArray();
                    var got = new List<byte[]>();
                    for (int i = 1; i < cuts.Length; i++) got.AddRange(decoder.Push(stream, cuts[i - 1], cuts[i] - cuts[i - 1]));
                    Assert.That(Texts(got), Is.EqualTo(new[] { M1, big, M2 }));
                    Assert.That(decoder.HasPartialFrame, Is.False);
                }
            }
        }
    }
}
