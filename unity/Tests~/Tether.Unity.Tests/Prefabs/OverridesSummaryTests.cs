using NUnit.Framework;
using Tether.Core.Tools;
using Tether.Unity.Prefabs;

namespace Tether.Unity.Tests.Prefabs
{
    /// <summary>How apply_prefab_overrides and revert_prefab_overrides report an instance's overrides.</summary>
    [TestFixture]
    public class OverridesSummaryTests
    {
        [Test]
        public void EachObjectAndTargetIsListedOnce()
        {
            var summary = new OverridesSummary();
            summary.AddPropertyOverride("/Enemy", "Transform");
            summary.AddPropertyOverride("/Enemy", "Transform");
            summary.AddPropertyOverride("/Enemy", "GameObject");
            summary.AddPropertyOverride("/Enemy/Gun", "Transform");
            Assert.That(summary.PropertyOverrides.ConvertAll(p => p.Path + " " + p.Target), Is.EqualTo(new[] { "/Enemy Transform", "/Enemy GameObject", "/Enemy/Gun Transform" }));
        }

        [Test]
        public void AnEmptySummaryHasEveryListEmpty()
        {
            var json = ToolJson.Compact(ToolJson.FromObject(new OverridesSummary()));
            Assert.That(json, Is.EqualTo("{\"propertyOverrides\":[],\"addedComponents\":[],\"removedComponents\":[],\"addedGameObjects\":[],\"removedGameObjects\":[]}"));
        }
    }
}
