using System.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    [TestFixture]
    public class LayerChoiceTests
    {
        private static readonly string[] Names = Enumerable.Range(0, 32)
            .Select(i => i switch { 0 => "Default", 1 => "TransparentFX", 2 => "Ignore Raycast", 4 => "Water", 5 => "UI", 8 => "Enemies", _ => "" })
            .ToArray();

        [TestCase("Default", 0)]
        [TestCase("Water", 4)]
        [TestCase("Enemies", 8)]
        [TestCase("8", 8)]
        [TestCase("12", 12)]
        [TestCase("031", 31)]
        public void TakesANameOrAnIndex(string value, int layer)
        {
            Assert.That(LayerChoice.Require(value, Names, "find_gameobjects"), Is.EqualTo(layer));
        }

        [TestCase("Enemes", "Did you mean \"Enemies\"?")]
        [TestCase("32", "(or give an index from 0 to 31)")]
        [TestCase("", "Layers: Default, TransparentFX, Ignore Raycast, Water, UI, Enemies")]
        [TestCase("-1", "no layer \"-1\"")]
        public void RefusesAnythingElseWithTheClosestNames(string value, string said)
        {
            var error = Assert.Throws<TetherException>(() => LayerChoice.Require(value, Names, "modify_gameobject"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for modify_gameobject: layer: the project has no layer \"" + value + "\"."));
            Assert.That(error.Message, Does.Contain(said));
            Assert.That((string)error.Data["field"], Is.EqualTo("layer"));
        }
    }
}
