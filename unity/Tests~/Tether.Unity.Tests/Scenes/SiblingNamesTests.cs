using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    [TestFixture]
    public class SiblingNamesTests
    {
        [Test]
        public void AFreeNameIsKept() => Assert.That(SiblingNames.Unique("Crate", new[] { "Ground" }), Is.EqualTo("Crate"));

        [Test]
        public void ATakenNameIsNumberedFromOne() => Assert.That(SiblingNames.Unique("Crate", new[] { "Crate", "Crate (1)" }), Is.EqualTo("Crate (2)"));

        [Test]
        public void ANumberedNameIsRenumberedNotNestedTwice() => Assert.That(SiblingNames.Unique("Crate (1)", new[] { "Crate", "Crate (1)" }), Is.EqualTo("Crate (2)"));

        [TestCase("Transform", true)]
        [TestCase("UnityEngine.Transform", true)]
        [TestCase("RectTransform", false)]
        [TestCase("MyGame.Transform", false)]
        public void TheTransformIsNamedShortOrFullAsEveryType(string type, bool transform) => Assert.That(ComponentChoices.NamesTransform(type), Is.EqualTo(transform));

        [Test]
        public void AMissingComponentIsNotFoundWithTheClosestOfTheObjectsComponents()
        {
            var error = ComponentChoices.NotFound("/Player", "BoxColider", 0, 0, new[] { "Transform", "BoxCollider" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Is.EqualTo("\"/Player\" has no BoxColider. Did you mean \"BoxCollider\"? Its components: Transform, BoxCollider."));
        }

        [Test]
        public void AnIndexPastTheComponentsOfATypeSaysHowManyThereAre()
        {
            var error = ComponentChoices.NotFound("/Player", "BoxCollider", 1, 1, new[] { "Transform", "BoxCollider" });
            Assert.That(error.Message, Is.EqualTo("\"/Player\" has only 1 BoxCollider (index 1 asked). Its components: Transform, BoxCollider."));
        }
    }
}
