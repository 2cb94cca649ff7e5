using System.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Serialization;

namespace Tether.Unity.Tests.Serialization
{
    [TestFixture]
    public class PropertyPathsTests
    {
        [TestCase("m_Mass", "m_Mass", "m_Mass")]
        [TestCase("stats.maxHealth", "stats.maxHealth", "stats.maxHealth")]
        [TestCase("waypoints[2].position", "waypoints.Array.data[2].position", "waypoints[2].position")]
        [TestCase("waypoints.Array.data[2].position", "waypoints.Array.data[2].position", "waypoints[2].position")]
        [TestCase("grid[1][3]", "grid.Array.data[1].Array.data[3]", "grid[1][3]")]
        [TestCase("m_Materials.Array.data[0]", "m_Materials.Array.data[0]", "m_Materials[0]")]
        public void BothSpellingsParseToTheSameSegments(string path, string unity, string shortForm)
        {
            var segments = PropertyPaths.Parse(path, "set_serialized_property");
            Assert.That(PropertyPaths.ToUnity(segments), Is.EqualTo(unity));
            Assert.That(PropertyPaths.ToShort(segments), Is.EqualTo(shortForm));
        }

        [Test]
        public void IndicesAndNamesAreTold()
        {
            var segments = PropertyPaths.Parse("waypoints[12].x", "t");
            Assert.That(segments.Select(s => s.IsIndex ? "#" + s.Index : s.Name), Is.EqualTo(new[] { "waypoints", "#12", "x" }));
        }

        [TestCase("", "empty")]
        [TestCase("a..b", "empty name")]
        [TestCase(".a", "empty name")]
        [TestCase("a.", "ends with")]
        [TestCase("a[1", "without its")]
        [TestCase("a[-1]", "whole number")]
        [TestCase("a[x]", "whole number")]
        [TestCase("[0]", "starts with an index")]
        [TestCase("a[0]b", "after an index")]
        public void MalformedPathsAreRefusedSayingWhatIsWrong(string path, string problem)
        {
            var error = Assert.Throws<TetherException>(() => PropertyPaths.Parse(path, "get_serialized_properties", "path"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["problem"], Does.Contain(problem));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for get_serialized_properties: path: "));
        }
    }
}
