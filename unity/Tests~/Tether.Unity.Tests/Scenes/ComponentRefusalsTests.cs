using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;
using Tether.Unity.Tests.Support;

namespace Tether.Unity.Tests.Scenes
{
    /// <summary>
    /// The errors for a component Unity refuses to add or remove: "can have only one" only when
    /// that is why (the sandbox's words), else that Unity refused and read_console says why;
    /// a removal names the components that need the one kept.
    /// </summary>
    [TestFixture]
    public class ComponentRefusalsTests
    {
        [Test]
        public void ASecondOfAOnePerObjectTypeIsRefusedInTheSandboxsWords()
        {
            var error = ComponentRefusals.AddRefused("add_component", "type", "/Player", "Health", "Health", hasOne: true);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            // src/sandbox/tools/gameobject-tools.ts says it so.
            Assert.That(error.Message, Is.EqualTo("Invalid arguments for add_component: type: \"/Player\" already has a Health, and a GameObject can have only one. Change the one it has instead."));
            Assert.That((string)error.Data["tool"], Is.EqualTo("add_component"));
            Assert.That((string)error.Data["field"], Is.EqualTo("type"));
            Assert.That((string)error.Data["problem"], Is.EqualTo("\"/Player\" already has a Health, and a GameObject can have only one"));
        }

        [Test]
        public void ASubtypeOfAOnePerObjectTypeSaysWhichTypeAllowsOne()
        {
            var error = ComponentRefusals.AddRefused("create_gameobject", "components", "/Boss", "BossHealth", "Health", hasOne: true);
            Assert.That(error.Message, Does.Contain("\"/Boss\" already has a Health, and a GameObject can have only one (a BossHealth is a Health)"));
            Assert.That((string)error.Data["field"], Is.EqualTo("components"));
        }

        [Test]
        public void ARefusedSecondOfATypeWithoutTheAttributeDoesNotClaimTheReason()
        {
            var error = ComponentRefusals.AddRefused("add_component", "type", "/Player", "Rigidbody", null, hasOne: true);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Not.Contain("can have only one"));
            Assert.That(error.Message, Does.Contain("Unity refused to add another Rigidbody to \"/Player\", which already has one"));
            Assert.That(error.Message, Does.Contain("read_console"));
        }

        [Test]
        public void ARefusedFirstOfATypeSaysUnityRefusedAndWhereItSaysWhy()
        {
            var error = ComponentRefusals.AddRefused("modify_gameobject", "addComponents", "/Ball", "Rigidbody2D", null, hasOne: false);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for modify_gameobject: addComponents: Unity refused to add a Rigidbody2D to \"/Ball\". read_console shows Unity's reason"));
            Assert.That(error.Message, Does.Not.Contain("only one"));
            Assert.That((string)error.Data["field"], Is.EqualTo("addComponents"));
        }

        [Test]
        public void AOnePerObjectTypeTheGameObjectHasNoneOfIsNotSaidToBeASecond()
        {
            var error = ComponentRefusals.AddRefused("add_component", "type", "/Player", "Health", "Health", hasOne: false);
            Assert.That(error.Message, Does.Not.Contain("only one"));
            Assert.That(error.Message, Does.Contain("Unity refused to add a Health to \"/Player\""));
        }

        [Test]
        public void AKeptComponentNamesTheComponentsThatNeedIt()
        {
            var error = ComponentRefusals.RemoveRefused("remove_component", "type", "/Player", "Rigidbody", new[] { "Mover", "CharacterMotor" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Is.EqualTo("Invalid arguments for remove_component: type: Unity refused to remove the Rigidbody of \"/Player\": its Mover, CharacterMotor depend on it ([RequireComponent]). Remove Mover, CharacterMotor first."));
            Assert.That(error.Data["dependents"].ToObject<string[]>(), Is.EqualTo(new[] { "Mover", "CharacterMotor" }));
        }

        [Test]
        public void AKeptComponentWithoutKnownDependentsSaysWhereUnitySaysWhy()
        {
            var error = ComponentRefusals.RemoveRefused("modify_gameobject", "removeComponents", "/Player", "MeshFilter", new string[0]);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("Unity refused to remove the MeshFilter of \"/Player\""));
            Assert.That(error.Message, Does.Contain("depends on it"));
            Assert.That(error.Message, Does.Contain("read_console"));
            Assert.That(error.Data["dependents"].ToObject<string[]>(), Is.Empty);
        }

        /// <summary>Every tool adds and removes components through ComponentEdits, which checks what Unity did.</summary>
        [Test]
        public void OnlyComponentEditsAddsOrRemovesComponents()
        {
            var editor = Path.Combine(RepoPaths.Package, "Editor", "Unity");
            var offenders = Directory.EnumerateFiles(editor, "*.cs", SearchOption.AllDirectories)
                .Where(path => Path.GetFileName(path) != "ComponentEdits.cs")
                .SelectMany(path => File.ReadAllLines(path).Select((line, n) => (path, line, n)))
                // Destroying a whole GameObject (delete_gameobject) is not a component's removal.
                .Where(hit => hit.line.Contains("Undo.AddComponent(") || (hit.line.Contains("DestroyObjectImmediate(") && !Regex.IsMatch(hit.line, @"DestroyObjectImmediate\(gameObject\)")))
                .Select(hit => Path.GetFileName(hit.path) + ":" + (hit.n + 1) + ": " + hit.line.Trim())
                .ToList();
            Assert.That(offenders, Is.Empty);
        }
    }
}
