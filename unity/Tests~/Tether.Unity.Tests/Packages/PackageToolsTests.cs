using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Dispatch;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;
using UnityEditor;
using UnityEditor.PackageManager;
using UnityEditor.PackageManager.Requests;

namespace Tether.Unity.Tests.Packages
{
    /// <summary>
    /// The package tools against the stand-in Package Manager: each request is waited for on the
    /// editor's ticks (never by blocking), answered from what it resolved and what the manifest
    /// said before, and a failed request fails the call with the Package Manager's reason.
    /// </summary>
    [TestFixture]
    public class PackageToolsTests
    {
        private EditorServices _services;
        private string _root;

        [SetUp]
        public void Editor()
        {
            UnityStandInState.Reset();
            Client.Reset();
            _root = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), "tether-packages-" + TestContext.CurrentContext.Test.ID)).FullName;
            Directory.CreateDirectory(Path.Combine(_root, "Packages"));
            Manifest("{ \"dependencies\": { \"com.unity.inputsystem\": \"1.6.3\", \"com.unity.ugui\": \"1.0.0\" } }");
            _services = new EditorServices { ProjectRoot = _root, MainThread = new MainThreadDispatcher(new RecordingLog(), null) };
            EditorServices.Current = _services;
        }

        [TearDown]
        public void Done()
        {
            EditorServices.Current = null;
            _services.MainThread.Dispose();
            Directory.Delete(_root, true);
        }

        private void Manifest(string json) => File.WriteAllText(Path.Combine(_root, "Packages", "manifest.json"), json);

        private static RegisteredTool Tool(string name) => ToolFactory.FromType(typeof(PackageTools)).Single(t => t.Name == name);

        private static PackageInfo Info(string name, string version, PackageSource source, bool direct) =>
            new PackageInfo(name, version, "", source, name + "@" + version, direct);

        [Test]
        public void ListsWhatTheRequestResolvedOnceItCompletes()
        {
            var tool = Tool("list_packages");
            var running = tool.Invoke(JObject.Parse("{\"includeIndirect\":true}"), new FakeToolContext());
            Assert.That(Client.Calls, Is.EqualTo(new[] { "list True True" }), "offline, with what the packages depend on");
            EditorApplication.update();
            Assert.That(running.IsCompleted, Is.False, "waits for the Package Manager, tick after tick");
            ((ListRequest)Client.Last).Succeed(new PackageCollection(new[] { Info("com.unity.ext.nunit", "1.0.6", PackageSource.Registry, false), Info("com.unity.ugui", "1.0.0", PackageSource.BuiltIn, true) }));
            EditorApplication.update();
            var structured = tool.ToResult(running.Result)["structuredContent"];
            Assert.That((int)structured["count"], Is.EqualTo(2));
            Assert.That(structured["packages"].Select(p => (string)p["name"]), Is.EqualTo(new[] { "com.unity.ugui", "com.unity.ext.nunit" }), "direct ones first");
            Assert.That((string)structured["packages"][0]["displayName"], Is.EqualTo("com.unity.ugui"), "a package without a display name shows its name");
            Assert.That((string)structured["packages"][0]["source"], Is.EqualTo("BuiltIn"));
        }

        [Test]
        public void AddingSaysWhatTheManifestHeldBefore()
        {
            var tool = Tool("add_package");
            var running = tool.Invoke(JObject.Parse("{\"identifier\":\"com.unity.inputsystem@1.7.0\"}"), new FakeToolContext());
            Assert.That(Client.Calls, Is.EqualTo(new[] { "add com.unity.inputsystem@1.7.0" }));
            Manifest("{ \"dependencies\": { \"com.unity.inputsystem\": \"1.7.0\" } }");
            ((AddRequest)Client.Last).Succeed(Info("com.unity.inputsystem", "1.7.0", PackageSource.Registry, true));
            EditorApplication.update();
            var structured = tool.ToResult(running.Result)["structuredContent"];
            Assert.That((bool)structured["changed"], Is.True);
            Assert.That((string)structured["previous"], Is.EqualTo("1.6.3"));
            Assert.That((string)structured["package"]["packageId"], Is.EqualTo("com.unity.inputsystem@1.7.0"));
        }

        [Test]
        public void ACancelEndsAListButNotAnAddThePackageManagerFinishesAnyway()
        {
            var listing = new FakeToolContext();
            var list = Tool("list_packages").Invoke(new JObject(), listing);
            listing.Cancel();
            EditorApplication.update();
            Assert.That(((TetherException)list.Exception.InnerException).Code, Is.EqualTo(ErrorCodes.Cancelled), "a list changes nothing: a cancel ends its wait");

            // The Package Manager cannot stop an add: "cancelled" would say the package is not there while it is.
            var tool = Tool("add_package");
            var adding = new FakeToolContext();
            var running = tool.Invoke(JObject.Parse("{\"identifier\":\"com.unity.inputsystem@1.7.0\"}"), adding);
            adding.Cancel();
            EditorApplication.update();
            Assert.That(running.IsCompleted, Is.False, "still waiting for the add the Package Manager goes on with");
            Manifest("{ \"dependencies\": { \"com.unity.inputsystem\": \"1.7.0\" } }");
            ((AddRequest)Client.Last).Succeed(Info("com.unity.inputsystem", "1.7.0", PackageSource.Registry, true));
            EditorApplication.update();
            Assert.That((bool)tool.ToResult(running.Result)["structuredContent"]["changed"], Is.True);
        }

        [Test]
        public void AFailedRequestFailsTheCallWithThePackageManagersReason()
        {
            var running = Tool("add_package").Invoke(JObject.Parse("{\"identifier\":\"com.unity.nothing\"}"), new FakeToolContext());
            ((AddRequest)Client.Last).Fail("Package com.unity.nothing cannot be found");
            EditorApplication.update();
            var error = (TetherException)running.Exception.InnerException;
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.Contain("adding com.unity.nothing").And.Contain("cannot be found"));
            Assert.That((string)error.Data["tool"], Is.EqualTo("add_package"));
        }

        [Test]
        public void APackageTheRegistryDoesNotHaveIsNotFoundAsInTheSandbox()
        {
            var running = Tool("add_package").Invoke(JObject.Parse("{\"identifier\":\"com.unity.nothing@9.9.9\"}"), new FakeToolContext());
            ((AddRequest)Client.Last).Fail("Package com.unity.nothing@9.9.9 cannot be found", ErrorCode.NotFound);
            EditorApplication.update();
            var error = (TetherException)running.Exception.InnerException;
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.Contain("add_package").And.Contain("cannot be found").And.Contain("list_packages"));
            Assert.That((string)error.Data["tool"], Is.EqualTo("add_package"));
        }

        [Test]
        public void RemovesOnlyWhatTheManifestListsAndNeverTether()
        {
            var tool = Tool("remove_package");
            var missing = (TetherException)tool.Invoke(JObject.Parse("{\"name\":\"com.unity.uguii\"}"), new FakeToolContext()).Exception.InnerException;
            Assert.That(missing.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(missing.Message, Does.Contain("Did you mean \"com.unity.ugui\""));
            var own = (TetherException)tool.Invoke(JObject.Parse("{\"name\":\"com.tether.host\"}"), new FakeToolContext()).Exception.InnerException;
            Assert.That(own.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(Client.Calls, Is.Empty, "nothing was asked of the Package Manager");

            var running = tool.Invoke(JObject.Parse("{\"name\":\"com.unity.ugui\"}"), new FakeToolContext());
            ((RemoveRequest)Client.Last).Succeed();
            EditorApplication.update();
            Assert.That(tool.ToResult(running.Result)["structuredContent"].ToString(Newtonsoft.Json.Formatting.None), Is.EqualTo("{\"removed\":\"com.unity.ugui\",\"previous\":\"1.0.0\",\"domainReload\":true}"));
        }

        [Test]
        public void ABrokenManifestIsReportedAndLeftAlone()
        {
            Manifest("{ \"dependencies\": ");
            var error = (TetherException)Tool("remove_package").Invoke(JObject.Parse("{\"name\":\"com.unity.ugui\"}"), new FakeToolContext()).Exception.InnerException;
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.Contain("is not valid JSON"));
        }
    }
}
