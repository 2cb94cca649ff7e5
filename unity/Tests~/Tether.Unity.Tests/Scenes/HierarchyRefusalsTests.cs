using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    /// <summary>A move or a delete Unity does not make is an INVALID_ARGUMENTS that says what to do instead, as in the sandbox.</summary>
    [TestFixture]
    public class HierarchyRefusalsTests
    {
        [Test]
        public void AChildOfAPrefabInstanceIsNotMovedOutOfIt()
        {
            var error = HierarchyRefusals.MoveInsideInstance("reparent_gameobject", "/Environment/Ground", "/Environment");
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Is.EqualTo(
                "Invalid arguments for reparent_gameobject: path: \"/Environment/Ground\" is part of the prefab instance \"/Environment\", whose own children Unity does not move. " +
                "Move the whole instance (\"/Environment\"), or change the prefab itself (open_prefab)."));
            Assert.That((string)error.Data["field"], Is.EqualTo("path"));
            Assert.That((string)error.Data["instanceRoot"], Is.EqualTo("/Environment"));
        }

        [TestCase("/World", "Invalid arguments for reparent_gameobject: parent: Unity did not move \"/Crate\" under \"/World\". Nothing was changed; read_console shows Unity's reason.")]
        [TestCase(null, "Invalid arguments for reparent_gameobject: parent: Unity did not move \"/Crate\" to the scene root. Nothing was changed; read_console shows Unity's reason.")]
        public void AMoveUnityDidNotMakeIsNotReportedAsMade(string parent, string message)
        {
            var error = HierarchyRefusals.ReparentRefused("reparent_gameobject", "/Crate", parent);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Is.EqualTo(message));
        }

        [Test]
        public void ADeleteUnityDidNotMakeIsNotReportedAsMade()
        {
            var error = HierarchyRefusals.DeleteRefused("delete_gameobject", "/Environment/Crate");
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for delete_gameobject: path: Unity did not delete \"/Environment/Crate\". Nothing was changed"));
            Assert.That(error.Message, Does.Contain("open_prefab"));
        }
    }
}
