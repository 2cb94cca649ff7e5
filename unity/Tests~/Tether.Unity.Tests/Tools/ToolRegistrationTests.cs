using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using Tether.Core.Tools;
using Tether.Unity.Lifecycle;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Tools
{
    /// <summary>Tools a project declares in its own assembly (this test assembly plays the project's Editor assembly).</summary>
    public static class ProjectTools
    {
        [TetherTool("spawn_wave", Description = "Spawns the next wave of enemies.")]
        public static string SpawnWave() => "spawned";

        [TetherTool("get_hierarchy", Description = "A project tool that would shadow the editor's own.", ReadOnly = true)]
        public static string Shadow() => "mine";
    }

    [TestFixture]
    public class ToolRegistrationTests
    {
        [Test]
        public void TheProjectsToolsJoinTheEditorsAndNoneShadowsABuiltIn()
        {
            var warnings = new List<string>();
            var builtIn = typeof(SceneReadTools).Assembly;
            var tools = ToolRegistration.Collect(new[] { typeof(ToolRegistrationTests).Assembly, builtIn, typeof(object).Assembly }, builtIn, warnings.Add);

            Assert.That(tools.Select(t => t.Name), Does.Contain("spawn_wave"));
            Assert.That(tools.Count(t => t.Name == "get_hierarchy"), Is.EqualTo(1));
            Assert.That(tools.Single(t => t.Name == "get_hierarchy").Descriptor["description"].ToString(), Does.StartWith("Returns the GameObject tree"));
            Assert.That(warnings.Single(), Does.Contain("\"get_hierarchy\"").And.Contain("built-in"));
            Assert.That(tools.Take(14).Select(t => t.Name), Does.Not.Contain("spawn_wave"), "the editor's own tools come first");
        }
    }
}
