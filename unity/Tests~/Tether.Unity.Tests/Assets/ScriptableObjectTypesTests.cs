using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Assets;
using UnityEngine;

namespace Tether.Unity.Tests.Assets
{
    /// <summary>ScriptableObject classes found by name with "did you mean", as the sandbox finds them (src/sandbox/tools/scriptable-object-tools.ts).</summary>
    [TestFixture]
    public class ScriptableObjectTypesTests
    {
        private sealed class GameSettings : ScriptableObject
        {
        }

        private sealed class EnemyWave : ScriptableObject
        {
        }

        private abstract class Shared : ScriptableObject
        {
        }

        private static readonly ScriptableObjectTypes Types = new ScriptableObjectTypes(new[] { typeof(GameSettings), typeof(EnemyWave), typeof(Shared) });

        [Test]
        public void ClassesAreFoundByShortOrFullName()
        {
            Assert.That(Types.Require("GameSettings", "create_scriptable_object"), Is.EqualTo(typeof(GameSettings)));
            Assert.That(Types.Require(typeof(EnemyWave).FullName, "create_scriptable_object"), Is.EqualTo(typeof(EnemyWave)));
        }

        [Test]
        public void AWrongNameGetsTheClosestAndAnUnrelatedOneTheList()
        {
            var error = Assert.Throws<TetherException>(() => Types.Require("GameSetings", "create_scriptable_object"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("no ScriptableObject class named \"GameSetings\"").And.Contain("Did you mean \"GameSettings\"?"));
            var unrelated = Assert.Throws<TetherException>(() => Types.Require("Rigidbody", "create_scriptable_object"));
            Assert.That(unrelated.Message, Does.Contain("The project's ScriptableObject classes: EnemyWave, GameSettings."));
        }

        [Test]
        public void AbstractClassesCannotBeMade()
        {
            Assert.Throws<TetherException>(() => Types.Require("Shared", "create_scriptable_object"));
        }

        [Test]
        public void WithoutAnyClassTheErrorSaysToWriteOne()
        {
            var error = Assert.Throws<TetherException>(() => new ScriptableObjectTypes(null).Require("GameSettings", "create_scriptable_object"));
            Assert.That(error.Message, Does.Contain("The project declares none"));
        }
    }
}
