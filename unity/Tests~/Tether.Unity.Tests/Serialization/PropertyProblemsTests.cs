using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Serialization;

namespace Tether.Unity.Tests.Serialization
{
    /// <summary>Why a property path finds nothing: the sandbox's messages (test/sandbox/serialized-tools.test.ts asserts them there).</summary>
    [TestFixture]
    public class PropertyProblemsTests
    {
        [Test]
        public void AnUnknownPropertyNamesTheClosestAndEveryProperty()
        {
            var error = PropertyProblems.NoProperty("Rigidbody on \"/Player\"", "m_Mas", new[] { "m_Mass", "m_Drag", "m_UseGravity" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.StartWith("Rigidbody on \"/Player\" has no property \"m_Mas\". Did you mean \"m_Mass\""));
            Assert.That(error.Message, Does.EndWith("Its properties: m_Mass, m_Drag, m_UseGravity. get_serialized_properties lists them with their types."));
            Assert.That((string)error.Data["suggestions"][0], Is.EqualTo("m_Mass"));
        }

        [Test]
        public void EachWrongStepSaysWhatIsThereInstead()
        {
            Assert.That(PropertyProblems.OutOfRange("waypoints", 1, 5).Message, Is.EqualTo("\"waypoints\" has 1 element, so no element 5. Set \"waypoints.Array.size\" first, or write the whole array."));
            Assert.That(PropertyProblems.OutOfRange("waypoints", 0, 0).Message, Does.StartWith("\"waypoints\" has 0 elements"));
            Assert.That(PropertyProblems.IsArray("labels").Message, Is.EqualTo("\"labels\" is an array. Write \"labels.Array.data[0]\" (or \"labels[0]\") for an element, \"labels.Array.size\" for its size."));
            Assert.That(PropertyProblems.NotArray("m_Mass", "Float").Message, Is.EqualTo("\"m_Mass\" is a Float, not an array."));
            Assert.That(PropertyProblems.NoFields("m_Mass", "Float").Message, Is.EqualTo("\"m_Mass\" is a Float and has no fields."));
            Assert.That(PropertyProblems.NoFields("kind", "Enum").Message, Is.EqualTo("\"kind\" is an Enum and has no fields."));
            Assert.That(PropertyProblems.NoField("stats", "speeed", new[] { "speed", "armor" }).Message, Is.EqualTo("\"stats\" has no field \"speeed\". Did you mean \"speed\"? Its fields: speed, armor."));
            Assert.That(PropertyProblems.SizeHasNoFields("a.Array.size").Message, Is.EqualTo("\"a.Array.size\" is an array's size and has no fields."));
        }

        [Test]
        public void AStructValueWithAnUnknownFieldIsAValueProblem()
        {
            var problem = PropertyProblems.NoFieldInValue("stats", "speeed", new[] { "speed", "armor" });
            Assert.That(problem.Problem, Is.EqualTo("stats has no field \"speeed\""));
            Assert.That(problem.Hint, Is.EqualTo("Did you mean \"speed\"? Its fields: speed, armor."));
        }
    }
}
