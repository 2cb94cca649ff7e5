using System.Collections.Generic;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Prefabs;

namespace Tether.Unity.Tests.Prefabs
{
    /// <summary>What close_prefab saves: one root, as the sandbox requires (src/sandbox/prefabs/prefab-stage.ts).</summary>
    [TestFixture]
    public class PrefabStagesTests
    {
        [Test]
        public void ContentsWithOneRootMayBeSaved()
        {
            Assert.DoesNotThrow(() => PrefabStages.RequireOneRoot("close_prefab", new List<string> { "Enemy" }));
        }

        [Test]
        public void AnObjectBesideThePrefabsRootIsRefusedNotDroppedWhileTheCallSaysSaved()
        {
            var error = Assert.Throws<TetherException>(() => PrefabStages.RequireOneRoot("close_prefab", new List<string> { "Enemy", "Spark" }));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Is.EqualTo(
                "Invalid arguments for close_prefab: save: the prefab's contents have 2 root GameObjects (\"/Enemy\", \"/Spark\"), and a prefab has exactly one. " +
                "Move the others under the root (reparent_gameobject) or delete them, then save; or close without saving."));
            Assert.That((string)error.Data["field"], Is.EqualTo("save"));
        }
    }
}
