using System.Linq;
using System.Text;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tests.Protocol
{
    [TestFixture]
    public class MessagesTests
    {
        private static JToken Parse(string text) => Messages.ParseBody(Encoding.UTF8.GetBytes(text));

        private static BodyException Refused(byte[] body) => Assert.Throws<BodyException>(() => Messages.ParseBody(body));

        private static BodyException Refused(string text) => Refused(Encoding.UTF8.GetBytes(text));

        [Test]
        public void ParsesStrictJsonAndStripsAByteOrderMark()
        {
            Assert.That((int)Parse("{\"a\":1}")["a"], Is.EqualTo(1));
            var withBom = new byte[] { 0xEF, 0xBB, 0xBF }.Concat(Encoding.UTF8.GetBytes("{\"a\":2}")).ToArray();
            Assert.That((int)Messages.ParseBody(withBom)["a"], Is.EqualTo(2));
            // Strings that look like dates stay strings: a result is sent back as it came.
            Assert.That(Parse("{\"at\":\"2025-01-01T00:00:00Z\"}")["at"].Type, Is.EqualTo(JTokenType.String));
        }

        [Test]
        public void RefusesInvalidUtf8AsParseError()
        {
            var error = Refused(new byte[] { (byte)'"', 0xC3, 0x28, (byte)'"' });
            Assert.That(error.Error.Code, Is.EqualTo(ErrorCodes.ParseError));
            Assert.That(error.Error.Message, Does.Contain("UTF-8"));
            Assert.That(error.Id, Is.Null);
        }

        [Test]
        public void RefusesWhatJsonParseRefusesThoughNewtonsoftWouldRead()
        {
            foreach (var text in new[] { "", " ", "{", "{'a':1}", "{a:1}", "[1,]", "{\"a\":1,}", "NaN", "{\"a\":NaN}", "// c\n{}", "{} {}", "01", "1.", ".5", "+1", "\"\t\"", "\"\\x\"", "tru", "{\"a\" 1}", "[1 2]", " \uFEFF{}" })
            {
                var error = Refused(text);
                Assert.That(error.Error.Code, Is.EqualTo(ErrorCodes.ParseError), text);
                Assert.That(error.Error.Message, Does.Contain("not valid JSON"), text);
            }
            foreach (var text in new[] { "0", "-0.5e+10", "[]", "{}", "\"\\u00e9\\n\"", " {\"a\" : [ true , false , null ] } ", "1E5" })
                Assert.DoesNotThrow(() => Parse(text), text);
        }

        [Test]
        public void RefusesNestingDeeperThan64WithInvalidRequestAndTheIdWhenReadable()
        {
            string Nest(int depth) => "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":" + new string('[', depth - 1) + new string(']', depth - 1) + "}";
            Assert.DoesNotThrow(() => Parse(Nest(64)));
            var error = Refused(Nest(65));
            Assert.That(error.Error.Code, Is.EqualTo(ErrorCodes.InvalidRequest));
            Assert.That((int)error.Id, Is.EqualTo(7));
            var deep = Refused(new string('[', 100_000) + new string(']', 100_000));
            Assert.That(deep.Error.Code, Is.EqualTo(ErrorCodes.InvalidRequest));
            Assert.That(deep.Id, Is.Null);
        }

        [TestCase("[]", "a message must be a JSON object (batches are not supported)")]
        [TestCase("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", "batches are not supported")]
        [TestCase("{\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" member must be \"2.0\"")]
        [TestCase("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" member must be \"2.0\"")]
        [TestCase("{\"jsonrpc\":2.0,\"id\":1,\"method\":\"ping\"}", "\"jsonrpc\" member must be \"2.0\"")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\"}", "non-empty string")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}", "non-empty string")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", "\"id\" member must be a string or a number")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "\"id\" member must be a string or a number")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":5}", "\"params\" member must be an object")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":null}", "\"params\" member must be an object")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"result\":{}}", "a response needs an \"id\"")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":\"x\",\"message\":\"m\"}}", "numeric \"code\" and a string \"message\"")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1}}", "numeric \"code\" and a string \"message\"")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1}", "needs a \"method\"")]
        public void RefusesWhatIsNotAJsonRpcMessage(string text, string reason)
        {
            Assert.That(Messages.Validate(Parse(text)), Does.Contain(reason));
        }

        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\",\"params\":{}}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\",\"params\":[]}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"m\"}}")]
        [TestCase("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null,\"extra\":1}")]
        public void AcceptsEveryKindOfMessage(string text)
        {
            Assert.That(Messages.Validate(Parse(text)), Is.Null);
        }

        [Test]
        public void RecoversTheIdOfAMalformedMessageOnlyWhenItIsAStringOrANumber()
        {
            Assert.That((int)Messages.IdOf(Parse("{\"jsonrpc\":\"1\",\"id\":4,\"method\":\"x\"}")), Is.EqualTo(4));
            Assert.That((string)Messages.IdOf(Parse("{\"id\":\"k\"}")), Is.EqualTo("k"));
            Assert.That(Messages.IdOf(Parse("{\"id\":null}")), Is.Null);
            Assert.That(Messages.IdOf(Parse("{\"id\":[1]}")), Is.Null);
            Assert.That(Messages.IdOf(Parse("[1]")), Is.Null);
        }

        [Test]
        public void IdKeysTellStringsFromNumbersButNotOneFromOnePointZero()
        {
            Assert.That(Messages.IdKey(new JValue(1)), Is.EqualTo(Messages.IdKey(new JValue(1.0))));
            Assert.That(Messages.IdKey(new JValue(1)), Is.Not.EqualTo(Messages.IdKey(new JValue("1"))));
        }

        [Test]
        public void EncodesTheHeaderWithTheBodysByteLengthAndAnswersEmptyResultsWithAnObject()
        {
            var frame = FrameEncoder.Encode(OutgoingMessage.Notification("m", new JObject { ["s"] = "€😀" }), 1000);
            var text = Encoding.UTF8.GetString(frame);
            var body = "{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"s\":\"€😀\"}}";
            Assert.That(text, Is.EqualTo($"Content-Length: {Encoding.UTF8.GetByteCount(body)}\r\n\r\n{body}"));
            var empty = Encoding.UTF8.GetString(FrameEncoder.Encode(OutgoingMessage.Success(new JValue(1.0), null), 1000));
            Assert.That(empty, Does.EndWith("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"));
        }

        [Test]
        public void RefusesToEncodeABodyOverTheLimitButTakesOneOfExactlyIt()
        {
            var message = new JObject { ["jsonrpc"] = "2.0", ["method"] = "m", ["params"] = new JObject { ["t"] = new string('x', 100) } };
            int length = Encoding.UTF8.GetByteCount(message.ToString(Newtonsoft.Json.Formatting.None));
            Assert.DoesNotThrow(() => FrameEncoder.Encode(message, length));
            var error = Assert.Throws<TetherException>(() => FrameEncoder.Encode(message, length - 1));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.FrameTooLarge));
            Assert.That((long)error.Data["length"], Is.EqualTo(length));
            Assert.That((long)error.Data["maxFrameBytes"], Is.EqualTo(length - 1));
        }
    }
}
