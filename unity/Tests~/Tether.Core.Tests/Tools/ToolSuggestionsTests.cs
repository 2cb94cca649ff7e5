using System.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    [TestFixture]
    public class ToolSuggestionsTests
    {
        private static readonly string[] Known = { "get_hierarchy", "find_gameobjects", "create_gameobject", "delete_gameobject", "build_player", "run_tests" };

        [Test]
        public void TheClosestNamesComeFirstIgnoringCase()
        {
            Assert.That(ToolSuggestions.Closest("build_palyer", Known), Is.EqualTo(new[] { "build_player" }));
            Assert.That(ToolSuggestions.Closest("CREATE_GAMEOBJECT", Known).First(), Is.EqualTo("create_gameobject"));
            Assert.That(ToolSuggestions.Closest("delete_gameobjet", Known), Is.EqualTo(new[] { "delete_gameobject", "create_gameobject", "find_gameobjects" }), "as src/schema/suggest.ts ranks them");
        }

        [Test]
        public void ASubstringCountsAsClose()
        {
            Assert.That(ToolSuggestions.Closest("hierarchy", Known), Is.EqualTo(new[] { "get_hierarchy" }));
        }

        [Test]
        public void NothingFarOffIsSuggestedAndAtMostMaxAre()
        {
            Assert.That(ToolSuggestions.Closest("compile", Known), Is.Empty);
            Assert.That(ToolSuggestions.Closest("a_gameobject", Known, 1).Count, Is.EqualTo(1));
            Assert.That(ToolSuggestions.Closest(new string('x', 300), Known), Is.Empty, "too long to compare");
        }

        [Test]
        public void UnknownToolNamesTheClosestAndToolsList()
        {
            var error = ToolSuggestions.UnknownTool("build_palyer", Known);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.UnknownTool));
            Assert.That(error.Message, Is.EqualTo("No tool named \"build_palyer\". Did you mean \"build_player\"? tools/list shows every tool."));
            Assert.That((string)error.Data["tool"], Is.EqualTo("build_palyer"));
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "build_player" }));
            var none = ToolSuggestions.UnknownTool("zzz", Known);
            Assert.That(none.Message, Is.EqualTo("No tool named \"zzz\". tools/list shows every tool."));
            Assert.That(none.Data["suggestions"].ToObject<string[]>(), Is.Empty);
        }

        [Test]
        public void AHugeNameIsClippedInTheError()
        {
            var error = ToolSuggestions.UnknownTool(new string('x', 5000), Known);
            Assert.That(((string)error.Data["tool"]).Length, Is.LessThan(260));
            Assert.That(error.Message, Does.Contain("(5000 characters)"));
        }
    }
}
