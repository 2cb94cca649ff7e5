using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace UnityEngine.FakePhysics
{
    public class Rigidbody { }
}

namespace MyGame
{
    public class Rigidbody { }
    public class Health { }
    public abstract class Base { }
}

namespace Tether.Unity.Tests.Scenes
{
    [TestFixture]
    public class ComponentTypeResolverTests
    {
        private static ComponentTypeResolver Resolver() => new ComponentTypeResolver(new[]
        {
            typeof(MyGame.Rigidbody), typeof(UnityEngine.FakePhysics.Rigidbody), typeof(MyGame.Health), typeof(MyGame.Base),
        });

        [Test]
        public void AShortNameSharedByNamespacesMeansUnitysType()
        {
            Assert.That(Resolver().Find("Rigidbody"), Is.EqualTo(typeof(UnityEngine.FakePhysics.Rigidbody)));
        }

        [Test]
        public void AFullNameMeansThatType()
        {
            Assert.That(Resolver().Find("MyGame.Rigidbody"), Is.EqualTo(typeof(MyGame.Rigidbody)));
            Assert.That(Resolver().Find("Health"), Is.EqualTo(typeof(MyGame.Health)));
        }

        [Test]
        public void AbstractTypesCannotBeAdded()
        {
            Assert.That(Resolver().Find("Base"), Is.Null);
        }

        [Test]
        public void AnUnknownNameIsRefusedWithTheClosestNames()
        {
            var error = Assert.Throws<TetherException>(() => Resolver().Require("Helth", "create_gameobject", "components"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("components"));
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Does.Contain("Health"));
            Assert.That(error.Message, Does.Contain("Did you mean \"Health\"?"));
        }
    }
}
