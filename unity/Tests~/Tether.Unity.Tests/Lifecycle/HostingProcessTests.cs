using NUnit.Framework;
using Tether.Unity.Lifecycle;

namespace Tether.Unity.Tests.Lifecycle
{
    public class HostingProcessTests
    {
        [Test]
        public void TheEditorsMainProcessHosts()
        {
            Assert.That(HostingProcess.WhyNot(null, assetImportWorker: false, secondaryProcess: false), Is.Null);
            Assert.That(HostingProcess.WhyNot("0", assetImportWorker: false, secondaryProcess: false), Is.Null);
        }

        [Test]
        public void AnAssetImportWorkerNeverHosts()
        {
            Assert.That(HostingProcess.WhyNot(null, assetImportWorker: true, secondaryProcess: false), Does.Contain("import worker"));
        }

        [Test]
        public void ASecondaryEditorProcessNeverHosts()
        {
            Assert.That(HostingProcess.WhyNot(null, assetImportWorker: false, secondaryProcess: true), Does.Contain("secondary editor process"));
        }

        [Test]
        public void TetherDisableKeepsEveryProcessFromHosting()
        {
            Assert.That(HostingProcess.WhyNot("1", assetImportWorker: false, secondaryProcess: false), Does.Contain("TETHER_DISABLE=1"));
        }
    }
}
