using System.IO;
using System.Runtime.InteropServices;
using NUnit.Framework;
using Tether.Core.Discovery;

namespace Tether.Core.Tests.Discovery
{
    [TestFixture]
    public class PosixFilesTests
    {
        private TempDir _temp;

        [SetUp]
        public void SetUp()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("POSIX modes and owners do not apply on Windows");
            _temp = new TempDir();
        }

        [TearDown]
        public void TearDown() => _temp?.Dispose();

        [TestCase(0x180)] // 0600
        [TestCase(0x1ED)] // 0755
        [TestCase(0x124)] // 0444
        public void ChmodSetsWhatModeOfReads(int mode)
        {
            var file = _temp.Combine("file");
            File.WriteAllText(file, "x");
            PosixFiles.Chmod(file, mode);
            Assert.That(PosixFiles.ModeOf(file), Is.EqualTo(mode));
            // The layout read by hand agrees with .NET's own stat.
            if (!System.OperatingSystem.IsWindows()) Assert.That(PosixFiles.ModeOf(file), Is.EqualTo((int)File.GetUnixFileMode(file)));
        }

        [Test]
        public void ModeOfReadsADirectorysStickyBit()
        {
            var dir = _temp.Combine("shared");
            Directory.CreateDirectory(dir);
            PosixFiles.Chmod(dir, 0x3FF); // 01777
            Assert.That(PosixFiles.ModeOf(dir), Is.EqualTo(0x3FF));
        }

        [Test]
        public void ChmodOfAMissingPathThrows()
        {
            Assert.Throws<IOException>(() => PosixFiles.Chmod(_temp.Combine("missing"), 0x180));
        }

        [Test]
        public void ModeOfAMissingPathIsMinusOne()
        {
            Assert.That(PosixFiles.ModeOf(_temp.Combine("missing")), Is.EqualTo(-1));
        }

        [Test]
        public void AFileMadeHereIsOurs()
        {
            var file = _temp.Combine("mine");
            File.WriteAllText(file, "x");
            Assert.That(PosixFiles.IsOwnedByCurrentUser(file), Is.True);
            Assert.That(PosixFiles.OwnerOf(file), Is.EqualTo(PosixFiles.CurrentUserId));
            Assert.That(PosixFiles.IsOwnedByCurrentUser(_temp.Combine("missing")), Is.False);
        }

        [Test]
        public void AFileGivenToAnotherUserIsNotOurs()
        {
            if (PosixFiles.CurrentUserId != 0) Assert.Ignore("only root can give a file away");
            var file = _temp.Combine("theirs");
            File.WriteAllText(file, "x");
            Assert.That(chown(file, 65534, 65534), Is.EqualTo(0));
            Assert.That(PosixFiles.IsOwnedByCurrentUser(file), Is.False);
            Assert.That(PosixFiles.OwnerOf(file), Is.EqualTo(65534));
        }

        [Test]
        public void SymbolicLinksAreToldApart()
        {
            var file = _temp.Combine("file");
            var dir = _temp.Combine("dir");
            File.WriteAllText(file, "x");
            Directory.CreateDirectory(dir);
            File.CreateSymbolicLink(_temp.Combine("to-file"), file);
            Directory.CreateSymbolicLink(_temp.Combine("to-dir"), dir);
            File.CreateSymbolicLink(_temp.Combine("dangling"), _temp.Combine("nowhere"));

            Assert.That(PosixFiles.IsSymlink(_temp.Combine("to-file")), Is.True);
            Assert.That(PosixFiles.IsSymlink(_temp.Combine("to-dir")), Is.True);
            Assert.That(PosixFiles.IsSymlink(_temp.Combine("dangling")), Is.True);
            Assert.That(PosixFiles.IsSymlink(file), Is.False);
            Assert.That(PosixFiles.IsSymlink(dir), Is.False);
            Assert.That(PosixFiles.IsSymlink(_temp.Combine("missing")), Is.False);
        }

        [DllImport("libc", SetLastError = true)]
        private static extern int chown(string path, int owner, int group);
    }
}
