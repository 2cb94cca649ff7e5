using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Assets;

namespace Tether.Unity.Tests.Assets
{
    /// <summary>Material values checked against their property's type, as the sandbox checks them (src/sandbox/assets/material-values.ts).</summary>
    [TestFixture]
    public class MaterialValuesTests
    {
        private static ShaderPropertySpec Spec(string type, double[] range = null) => new ShaderPropertySpec { Name = "_P", Type = type, Range = range };

        private static object Convert(string type, string json, double[] range = null) => MaterialValues.Convert(Spec(type, range), JToken.Parse(json), "set_material");

        private static string Refused(string type, string json, double[] range = null)
        {
            var error = Assert.Throws<TetherException>(() => Convert(type, json, range));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("properties._P"));
            return error.Message;
        }

        [Test]
        public void ColorsTakeThreeOrFourNumbersOrHex()
        {
            Assert.That(Convert("Color", "[1, 0.5, 0]"), Is.EqualTo(new[] { 1, 0.5, 0, 1 }));
            Assert.That(Convert("Color", "[2, 0, 0, 0.5]"), Is.EqualTo(new[] { 2, 0, 0, 0.5 }));
            Assert.That(Convert("Color", "\"#336699\""), Is.EqualTo(new[] { 0.2, 0.4, 0.6, 1 }));
            Assert.That(Convert("Color", "\"#FF000080\""), Is.EqualTo(new[] { 1, 0, 0, 128 / 255d }));
            Assert.That(Refused("Color", "\"red\""), Does.Contain("a Color takes [r, g, b, a]").And.Contain("not \"red\""));
            Assert.That(Refused("Color", "[1, 2]"), Does.Contain("a Color takes"));
        }

        [Test]
        public void VectorsArePaddedToFour()
        {
            Assert.That(Convert("Vector", "[1, 2]"), Is.EqualTo(new double[] { 1, 2, 0, 0 }));
            Assert.That(Refused("Vector", "[1, 2, 3, 4, 5]"), Does.Contain("a Vector takes [x, y, z, w]"));
        }

        [Test]
        public void NumbersAndRanges()
        {
            Assert.That(Convert("Float", "-3.5"), Is.EqualTo(-3.5));
            Assert.That(Convert("Range", "1", new double[] { 0, 1 }), Is.EqualTo(1d));
            Assert.That(Refused("Range", "1.5", new double[] { 0, 1 }), Does.Contain("1.5 is outside its range, 0 to 1"));
            Assert.That(Refused("Float", "\"1\""), Does.Contain("a Float takes a number"));
            Assert.That(Convert("Int", "7"), Is.EqualTo(7));
            Assert.That(Refused("Int", "7.5"), Does.Contain("an Int takes a whole number"));
        }

        [Test]
        public void TexturesArePathsReferencesOrNull()
        {
            Assert.That(Convert("Texture", "\"Assets/T.png\""), Is.EqualTo("Assets/T.png"));
            Assert.That(Convert("Texture", "{\"asset\": \"Assets/T.png\"}"), Is.EqualTo("Assets/T.png"));
            Assert.That(Convert("Texture", "null"), Is.Null);
            Assert.That(Refused("Texture", "42"), Does.Contain("a Texture takes a texture's asset path"));
        }
    }
}
