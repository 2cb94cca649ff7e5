using System;
using System.IO;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Discovery;

namespace Tether.Core.Tests.Discovery
{
    [TestFixture]
    public class HostRecordsTests
    {
        private TempDir _temp;
        private string _hosts;

        [SetUp]
        public void SetUp()
        {
            _temp = new TempDir();
            _hosts = _temp.Combine("home", "hosts");
        }

        [TearDown]
        public void TearDown() => _temp.Dispose();

        private static HostRecord Sample(int port = 53117) => new HostRecord
        {
            InstanceId = "6f1c2a9e-4b1d-4a57-9d8e-2b8f3f0f6c11",
            Pid = Environment.ProcessId,
            Port = port,
            Token = "9qk4Qm3JcF1xWc2bqkK3Xb0QH2uZ3lQe",
            ProjectPath = "/Users/ana/MyGame",
            Kind = "unity",
            Name = "MyGame",
            StartedAt = "2025-11-23T05:11:00.000Z",
            Auth = HostRecord.ProofAuth,
        };

        private static void AssertPosixMode(string path, int mode)
        {
            if (!PosixFiles.IsPosix) return;
            Assert.That(Convert.ToString(PosixFiles.ModeOf(path), 8), Is.EqualTo(Convert.ToString(mode, 8)), path);
        }

        [Test]
        public void WritesTheRecordAsTheTypeScriptDoes()
        {
            var path = HostRecords.Write(_hosts, Sample());
            Assert.That(path, Is.EqualTo(Path.Combine(_hosts, "6f1c2a9e-4b1d-4a57-9d8e-2b8f3f0f6c11.json")));
            Assert.That(HostRecords.PathOf(_hosts, "6f1c2a9e-4b1d-4a57-9d8e-2b8f3f0f6c11"), Is.EqualTo(path));
            // JSON.stringify(record, null, 2) + "\n", fields in the TypeScript order.
            var expected = "{\n" +
                "  \"instanceId\": \"6f1c2a9e-4b1d-4a57-9d8e-2b8f3f0f6c11\",\n" +
                $"  \"pid\": {Environment.ProcessId},\n" +
                "  \"port\": 53117,\n" +
                "  \"host\": \"127.0.0.1\",\n" +
                "  \"token\": \"9qk4Qm3JcF1xWc2bqkK3Xb0QH2uZ3lQe\",\n" +
                "  \"projectPath\": \"/Users/ana/MyGame\",\n" +
                "  \"kind\": \"unity\",\n" +
                "  \"name\": \"MyGame\",\n" +
                "  \"protocolVersion\": 1,\n" +
                "  \"startedAt\": \"2025-11-23T05:11:00.000Z\",\n" +
                "  \"auth\": \"proof\"\n" +
                "}\n";
            Assert.That(File.ReadAllText(path), Is.EqualTo(expected));
        }

        [Test]
        public void OptionalFieldsAreLeftOutWhenUnset()
        {
            var record = Sample();
            record.Name = null;
            record.Auth = null;
            var json = record.ToJson();
            Assert.That(json.Properties().Select(p => p.Name), Is.EqualTo(new[] { "instanceId", "pid", "port", "host", "token", "projectPath", "kind", "protocolVersion", "startedAt" }));
        }

        [Test]
        public void TheRecordIs0600InA0700DirectoryWithNoTemporaryFileLeft()
        {
            var path = HostRecords.Write(_hosts, Sample());
            AssertPosixMode(path, 0x180);
            AssertPosixMode(_hosts, 0x1C0);
            // mkdir -p 0700: the missing parent (TETHER_HOME) is private too.
            AssertPosixMode(Path.GetDirectoryName(_hosts), 0x1C0);
            Assert.That(Directory.GetFiles(_hosts).Select(Path.GetFileName), Is.EqualTo(new[] { Path.GetFileName(path) }));
        }

        [Test]
        public void RewritingReplacesTheRecordWhole()
        {
            var path = HostRecords.Write(_hosts, Sample(1111));
            if (PosixFiles.IsPosix) PosixFiles.Chmod(path, 0x1A4); // 0644: the new file does not inherit it
            HostRecords.Write(_hosts, Sample(2222));
            Assert.That(HostRecord.Parse(File.ReadAllText(path)).Port, Is.EqualTo(2222));
            AssertPosixMode(path, 0x180);
            Assert.That(Directory.GetFiles(_hosts), Has.Length.EqualTo(1));
        }

        [Test]
        public void AnOpenDirectoryOfOursIsTightened()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("POSIX modes only");
            Directory.CreateDirectory(_hosts);
            PosixFiles.Chmod(_hosts, 0x1FF); // 0777
            HostRecords.Write(_hosts, Sample());
            AssertPosixMode(_hosts, 0x1C0);
        }

        [Test]
        public void ASymlinkedHostsDirectoryIsRefused()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("the symbolic-link check is POSIX only");
            var elsewhere = _temp.Combine("elsewhere");
            Directory.CreateDirectory(elsewhere);
            Directory.CreateDirectory(Path.GetDirectoryName(_hosts));
            Directory.CreateSymbolicLink(_hosts, elsewhere);
            var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(error.Code, Is.EqualTo("UNSAFE_DIRECTORY"));
            Assert.That(error.Data["code"], Is.EqualTo("UNSAFE_DIRECTORY"));
            Assert.That(error.Message, Does.Contain("symbolic link").And.Contain(elsewhere).And.Contain("TETHER_HOME"));
            Assert.That(Directory.GetFileSystemEntries(elsewhere), Is.Empty);
        }

        [Test]
        public void ADanglingSymlinkIsRefused()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("the symbolic-link check is POSIX only");
            Directory.CreateDirectory(Path.GetDirectoryName(_hosts));
            Directory.CreateSymbolicLink(_hosts, _temp.Combine("nowhere"));
            var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(error.Message, Does.Contain("symbolic link"));
            Assert.That(Directory.Exists(_temp.Combine("nowhere")), Is.False);
        }

        [Test]
        public void AnotherUsersDirectoryIsRefused()
        {
            if (!PosixFiles.IsPosix || PosixFiles.CurrentUserId != 0) Assert.Ignore("only root can give a directory away");
            Directory.CreateDirectory(_hosts);
            Assert.That(chown(_hosts, 65534, 65534), Is.EqualTo(0));
            var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(error.Message, Does.Contain("belongs to another user (uid 65534"));
            Assert.That(Directory.GetFiles(_hosts), Is.Empty);
        }

        [Test]
        public void ARecordsFolderInsideAFolderAnotherUserOwnsIsRefusedBeforeAnythingIsMade()
        {
            if (!PosixFiles.IsPosix || PosixFiles.CurrentUserId != 0) Assert.Ignore("only root can give a directory away (and Windows relies on the profile's ACLs)");
            // A TETHER_HOME made by someone else, open for anyone to enter, as a planted one would be.
            var home = Path.GetDirectoryName(_hosts);
            Directory.CreateDirectory(home);
            PosixFiles.Chmod(home, 0x1ED); // 0755
            Assert.That(chown(home, 65534, 65534), Is.EqualTo(0));
            foreach (var dir in new[] { _hosts, Path.Combine(home, "deeper", "hosts") })
            {
                var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(dir, Sample()));
                Assert.That(error.Code, Is.EqualTo("UNSAFE_DIRECTORY"));
                Assert.That(error.DirectoryPath, Is.EqualTo(dir));
                Assert.That(error.Problem, Is.EqualTo($"it lies inside {home}, which belongs to another user (uid 65534; this process runs as uid 0)"));
                Assert.That(error.Message, Does.Contain("Set TETHER_HOME to a directory of your own"));
            }
            Assert.That(Directory.GetFileSystemEntries(home), Is.Empty, "nothing was made inside it");
        }

        [Test]
        public void ARecordsFolderReachedThroughALinkToAFolderAnotherUserOwnsIsRefused()
        {
            if (!PosixFiles.IsPosix || PosixFiles.CurrentUserId != 0) Assert.Ignore("only root can give a directory away (and Windows relies on the profile's ACLs)");
            var theirs = _temp.Combine("theirs");
            Directory.CreateDirectory(theirs);
            Assert.That(chown(theirs, 65534, 65534), Is.EqualTo(0));
            // The link is root's own; the folder it leads to is not.
            var home = Path.GetDirectoryName(_hosts);
            Directory.CreateSymbolicLink(home, theirs);
            var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(error.Problem, Does.StartWith($"it lies inside {home}, which belongs to another user (uid 65534;"));
            Assert.That(Directory.GetFileSystemEntries(theirs), Is.Empty);
            // Folders root owns above (/, /tmp) are no reason to refuse: root could change them anyway.
            Assert.That(PrivateFiles.ForeignFolderAbove(_temp.Combine("mine", "hosts"), 0), Is.Null);
            Assert.DoesNotThrow(() => HostRecords.Write(_temp.Combine("mine", "hosts"), Sample()));
        }

        [Test]
        public void AStickySharedDirectoryIsRefused()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("POSIX modes only");
            Directory.CreateDirectory(_hosts);
            PosixFiles.Chmod(_hosts, 0x3FF); // 01777, like /tmp
            var error = Assert.Throws<UnsafeDirectoryException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(error.Message, Does.Contain("shared with every user"));
            AssertPosixMode(_hosts, 0x3FF);
        }

        [Test]
        public void AFailedWriteLeavesNoTemporaryFile()
        {
            // A directory where the record should go: the rename cannot replace it.
            Directory.CreateDirectory(HostRecords.PathOf(_hosts, Sample().InstanceId));
            Assert.Catch<IOException>(() => HostRecords.Write(_hosts, Sample()));
            Assert.That(Directory.GetFiles(_hosts), Is.Empty);
        }

        [Test]
        public void RemoveDeletesTheRecordAndToleratesNone()
        {
            var path = HostRecords.Write(_hosts, Sample());
            HostRecords.Remove(_hosts, Sample().InstanceId);
            Assert.That(File.Exists(path), Is.False);
            Assert.DoesNotThrow(() => HostRecords.Remove(_hosts, Sample().InstanceId));
            Assert.DoesNotThrow(() => HostRecords.Remove(_temp.Combine("no", "such", "dir"), "x"));
        }

        [Test]
        public void FromJsonReadsWhatToJsonWrites()
        {
            var read = HostRecord.Parse(Sample().ToFileText());
            Assert.That(JToken.DeepEquals(read.ToJson(), Sample().ToJson()), Is.True);
        }

        [Test]
        public void FromJsonDefaultsHostAndKeepsDatesAsText()
        {
            var json = JObject.Parse("{\"instanceId\":\"i\",\"pid\":1,\"port\":2,\"token\":\"t\",\"projectPath\":\"/p\",\"kind\":\"k\",\"protocolVersion\":1,\"startedAt\":\"2025-11-23T05:11:00.123Z\",\"extra\":true}");
            var record = HostRecord.FromJson(json);
            Assert.That(record.Host, Is.EqualTo("127.0.0.1"));
            Assert.That(record.StartedAt, Is.EqualTo("2025-11-23T05:11:00.123Z"));
            Assert.That(record.Name, Is.Null);
            Assert.That(record.Auth, Is.Null);
        }

        [TestCase("token", "{\"instanceId\":\"i\",\"pid\":1,\"port\":2,\"projectPath\":\"/p\",\"kind\":\"k\",\"protocolVersion\":1,\"startedAt\":\"s\"}")]
        [TestCase("port", "{\"instanceId\":\"i\",\"pid\":1,\"port\":2.5,\"token\":\"t\",\"projectPath\":\"/p\",\"kind\":\"k\",\"protocolVersion\":1,\"startedAt\":\"s\"}")]
        [TestCase("pid", "{\"instanceId\":\"i\",\"pid\":\"1\",\"port\":2,\"token\":\"t\",\"projectPath\":\"/p\",\"kind\":\"k\",\"protocolVersion\":1,\"startedAt\":\"s\"}")]
        public void FromJsonNamesAMissingOrMistypedField(string field, string text)
        {
            var error = Assert.Throws<FormatException>(() => HostRecord.Parse(text));
            Assert.That(error.Message, Does.Contain($"\"{field}\""));
        }

        [Test]
        public void FormatTimeIsJavaScriptsToIsoString()
        {
            var time = new DateTime(2025, 11, 23, 5, 11, 0, 7, DateTimeKind.Utc);
            Assert.That(HostRecord.FormatTime(time), Is.EqualTo("2025-11-23T05:11:00.007Z"));
        }

        [Test]
        public void TheTypeScriptClientListsTheRecord()
        {
            var root = Node.RepoRoot();
            if (root == null || !File.Exists(Path.Combine(root, "dist", "discovery", "index.js"))) Assert.Ignore("no TypeScript build (dist/) to read the record with");
            HostRecords.Write(_hosts, Sample());
            var module = new Uri(Path.Combine(root, "dist", "discovery", "index.js")).AbsoluteUri;
            var output = Node.Run(
                $"import('{module}').then((m) => console.log(JSON.stringify(m.listHostRecords(process.argv[1], {{ warn: (d, msg) => console.error(msg, d) }}))))",
                _hosts);
            var records = (JArray)JsonConvert.DeserializeObject(output, new JsonSerializerSettings { DateParseHandling = DateParseHandling.None });
            Assert.That(records, Has.Count.EqualTo(1));
            Assert.That(JToken.DeepEquals(records[0], Sample().ToJson()), Is.True, output);
        }

        [System.Runtime.InteropServices.DllImport("libc", SetLastError = true)]
        private static extern int chown(string path, int owner, int group);
    }
}
