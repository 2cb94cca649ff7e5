using System;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Unity.Serialization;

namespace Tether.Unity.Tests.Serialization
{
    /// <summary>Values checked against a property's type, in the sandbox's words (test/sandbox/serialized-model.test.ts has the same cases).</summary>
    [TestFixture]
    public class SerializedValuesTests
    {
        private static ValueProblem Refused(TestDelegate check) => Assert.Throws<ValueProblem>(check);

        [Test]
        public void TakesValuesOfTheRightType()
        {
            Assert.That(SerializedValues.Integer(JToken.Parse("3"), "n"), Is.EqualTo(3));
            Assert.That(SerializedValues.Integer(JToken.Parse("3.0"), "n"), Is.EqualTo(3), "a whole number written with a point is still whole, as in JavaScript");
            Assert.That(SerializedValues.Float(JToken.Parse("1.5"), "f"), Is.EqualTo(1.5));
            Assert.That(SerializedValues.Float(JToken.Parse("2"), "f"), Is.EqualTo(2));
            Assert.That(SerializedValues.Boolean(JToken.Parse("true"), "b"), Is.True);
            Assert.That(SerializedValues.String(JToken.Parse("\"x\""), "s"), Is.EqualTo("x"));
            Assert.That(SerializedValues.Character(JToken.Parse("\"c\""), "c"), Is.EqualTo('c'));
            Assert.That(SerializedValues.LayerMask(JToken.Parse("4294967295"), "mask"), Is.EqualTo(-1), "every layer, as Unity's intValue holds it");
            Assert.That(SerializedValues.Numbers(JToken.Parse("[1, 2, 3]"), "Vector3", "v"), Is.EqualTo(new[] { 1.0, 2, 3 }));
            Assert.That(SerializedValues.Numbers(JToken.Parse("[1, 0, 0, 1]"), "Color", "c"), Is.EqualTo(new[] { 1.0, 0, 0, 1 }));
            Assert.That(SerializedValues.Rect(JToken.Parse("{\"width\": 4}"), new[] { 1.0, 2, 3, 4 }, "r"), Is.EqualTo(new[] { 1.0, 2, 4, 4 }));
            Assert.That(SerializedValues.ArraySize(JToken.Parse("2"), "a.Array.size", 100000), Is.EqualTo(2));
        }

        [Test]
        public void EnumsAreTakenByNameOrIndexWithDidYouMean()
        {
            var names = new[] { "None", "Interpolate", "Extrapolate" };
            Assert.That(SerializedValues.EnumIndex(JToken.Parse("\"Interpolate\""), names, "m_Interpolate"), Is.EqualTo(1));
            Assert.That(SerializedValues.EnumIndex(JToken.Parse("2"), names, "m_Interpolate"), Is.EqualTo(2));
            var problem = Refused(() => SerializedValues.EnumIndex(JToken.Parse("\"Interpolat\""), names, "m_Interpolate"));
            Assert.That(problem.Problem, Does.StartWith("m_Interpolate is an Enum, and the string \"Interpolat\" is none of its members (did you mean \"Interpolate\""));
            Assert.That(problem.Hint, Is.EqualTo("Give one of \"None\", \"Interpolate\", \"Extrapolate\" (or its index from 0)."));
            Assert.That(Refused(() => SerializedValues.EnumIndex(JToken.Parse("3"), names, "e")).Problem, Does.Contain("number 3 is none of its members"));
        }

        [Test]
        public void AWrongValueSaysWhatTheFieldTakes()
        {
            var problem = Refused(() => SerializedValues.Float(JToken.Parse("\"heavy\""), "m_Mass"));
            Assert.That(problem.Problem, Is.EqualTo("m_Mass is a Float, not the string \"heavy\""));
            Assert.That(problem.Hint, Is.EqualTo("Give a number, e.g. 1.5."));
            Assert.That(Refused(() => SerializedValues.Integer(JToken.Parse("1.5"), "maxHealth")).Problem, Is.EqualTo("maxHealth is an Integer, not number 1.5"));
            Assert.That(Refused(() => SerializedValues.Numbers(JToken.Parse("[1, 2]"), "Vector3", "waypoints[0]")).Problem, Is.EqualTo("waypoints[0] is a Vector3, not an array of 2"));
            Assert.That(Refused(() => SerializedValues.Numbers(JToken.Parse("[1, 2]"), "Vector3", "v")).Hint, Is.EqualTo("Give [x, y, z], 3 numbers."));
            Assert.That(Refused(() => SerializedValues.Numbers(JToken.Parse("[1.5, 2]"), "Vector2Int", "v")).Hint, Is.EqualTo("Give [x, y], 2 whole numbers."));
            Assert.That(Refused(() => SerializedValues.Numbers(JToken.Parse("{}"), "Color", "tint")).Hint, Is.EqualTo("Give [r, g, b, a], 4 numbers from 0 to 1."));
            Assert.That(Refused(() => SerializedValues.Boolean(JToken.Parse("null"), "b")).Problem, Is.EqualTo("b is a Boolean, not null"));
            Assert.That(Refused(() => SerializedValues.Character(JToken.Parse("\"ab\""), "c")).Problem, Is.EqualTo("c is a Character, not the string \"ab\""));
            Assert.That(Refused(() => SerializedValues.Rect(JToken.Parse("{\"w\": 1}"), new double[4], "r")).Problem, Is.EqualTo("r is a Rect, not an object"));
            Assert.That(Refused(() => SerializedValues.LayerMask(JToken.Parse("4294967296"), "mask")).Problem, Does.Contain("is a LayerMask"));
            var size = Refused(() => SerializedValues.ArraySize(JToken.Parse("-1"), "waypoints.Array.size", 100000));
            Assert.That(size.Problem, Is.EqualTo("waypoints.Array.size is an array's size, not -1"));
            Assert.That(size.Hint, Is.EqualTo("Give a whole number from 0 to 100000."));
        }

        [Test]
        public void LongStringsAreCutInProblems()
        {
            var problem = Refused(() => SerializedValues.Float(JToken.FromObject(new string('x', 100)), "f"));
            Assert.That(problem.Problem, Is.EqualTo("f is a Float, not the string \"" + new string('x', 40) + "…\""));
        }

        [Test]
        public void FloatsReadWithoutFloatNoise()
        {
            Assert.That(SerializedValues.FromFloat(0.3f).ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("0.3"));
            Assert.That(SerializedValues.FromFloat(1f).ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("1.0"));
            Assert.That(SerializedValues.PartsOf("Quaternion"), Is.EqualTo(new[] { "x", "y", "z", "w" }));
            Assert.That(SerializedValues.PartsOf("Float"), Is.Null);
            Assert.Throws<ArgumentException>(() => SerializedValues.Numbers(JToken.Parse("1"), "Float", "f"));
        }
    }
}
