using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Packages;

namespace Tether.Unity.Tests.Packages
{
    /// <summary>add_package's identifiers: the same cases as test/sandbox/package-id.test.ts.</summary>
    [TestFixture]
    public class PackageIdsTests
    {
        [TestCase("com.unity.textmeshpro", "registry", "com.unity.textmeshpro", null)]
        [TestCase("com.unity.inputsystem@1.7.0", "registry", "com.unity.inputsystem", "1.7.0")]
        [TestCase("com.company.tool@2.0.0-preview.3", "registry", "com.company.tool", "2.0.0-preview.3")]
        [TestCase("https://github.com/owner/repo.git?path=/pkg#v1.0.0", "git", null, null)]
        [TestCase("git@github.com:owner/repo.git", "git", null, null)]
        [TestCase("git+ssh://git@host/owner/repo.git", "git", null, null)]
        [TestCase("file:../MyPackage", "local", null, null)]
        [TestCase("file:/abs/com.x.y-1.0.0.tgz", "local", null, null)]
        public void ReadsEachForm(string identifier, string kind, string name, string version)
        {
            var spec = PackageIds.Parse(identifier, "add_package");
            Assert.That(spec.Kind, Is.EqualTo(kind));
            Assert.That(spec.Name, Is.EqualTo(name));
            Assert.That(spec.Version, Is.EqualTo(version));
            Assert.That(spec.Text, Is.EqualTo(identifier));
        }

        [TestCase("TextMeshPro", "is not a package name")]
        [TestCase("Com.Unity.Ugui", "Package names are lowercase: \"com.unity.ugui\"")]
        [TestCase("textmeshpro", "is not a package name")]
        [TestCase("com.unity.ugui@latest", "\"latest\" is not a version")]
        [TestCase("com.unity.ugui@1.0", "\"1.0\" is not a version")]
        [TestCase("com..unity", "is not a package name")]
        [TestCase("file:", "names no folder")]
        [TestCase("", "is not a package name")]
        public void RefusesWhatIsNoPackageSayingWhatToGive(string identifier, string problem)
        {
            var error = Assert.Throws<TetherException>(() => PackageIds.Parse(identifier, "add_package"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain(problem));
            Assert.That((string)error.Data["field"], Is.EqualTo("identifier"));
        }

        [Test]
        public void NeverRemovesTethersOwnPackage()
        {
            Assert.That(Assert.Throws<TetherException>(() => PackageIds.CheckRemovable("com.tether.host", "remove_package")).Message, Does.Contain("cut this agent off"));
            Assert.That(Assert.Throws<TetherException>(() => PackageIds.CheckRemovable("com.unity.ugui@1.0.0", "remove_package")).Message, Does.Contain("without a version"));
            Assert.DoesNotThrow(() => PackageIds.CheckRemovable("com.unity.ugui", "remove_package"));
            Assert.That(PackageIds.IsName("com." + new string('a', 211)), Is.False);
        }
    }
}
