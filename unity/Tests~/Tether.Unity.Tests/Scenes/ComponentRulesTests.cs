using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using Tether.Unity.Scenes;
using UnityEngine;

namespace Tether.Unity.Tests.Scenes.RuleFixtures
{
    public class Body : Component { }
    public class Collider : Component { }
    public class BoxCollider : Collider { }
    public class SphereCollider : Collider { }

    [DisallowMultipleComponent]
    public class Health : Component { }

    public class BossHealth : Health { }

    [RequireComponent(typeof(Body))]
    public class Mover : Component { }

    public class FastMover : Mover { }

    [RequireComponent(typeof(Collider))]
    public class Trigger : Component { }

    [RequireComponent(typeof(Mover), typeof(Collider))]
    [RequireComponent(typeof(Health))]
    public class Enemy : Component { }
}

namespace Tether.Unity.Tests.Scenes
{
    using Tether.Unity.Tests.Scenes.RuleFixtures;

    /// <summary>What [DisallowMultipleComponent] and [RequireComponent] tell of a refused add or remove, read as Unity reads them.</summary>
    [TestFixture]
    public class ComponentRulesTests
    {
        [Test]
        public void OnlyOneOfATypeWithDisallowMultipleComponentOrItsBaseClassOrTransform()
        {
            Assert.That(ComponentRules.OnlyOneOf(typeof(Health)), Is.EqualTo(typeof(Health)));
            // The attribute is not inherited (Inherited = false): Unity walks the base classes, and so does Tether.
            Assert.That(ComponentRules.OnlyOneOf(typeof(BossHealth)), Is.EqualTo(typeof(Health)));
            Assert.That(ComponentRules.OnlyOneOf(typeof(Transform)), Is.EqualTo(typeof(Transform)));
            Assert.That(ComponentRules.OnlyOneOf(typeof(Body)), Is.Null);
        }

        [Test]
        public void RequiresReadsEveryRequireComponentOfTheTypeAndItsBaseClasses()
        {
            Assert.That(ComponentRules.Requires(typeof(FastMover)), Is.EquivalentTo(new[] { typeof(Body) }));
            Assert.That(ComponentRules.Requires(typeof(Enemy)), Is.EquivalentTo(new[] { typeof(Mover), typeof(Collider), typeof(Health) }));
            Assert.That(ComponentRules.Requires(typeof(Body)), Is.Empty);
        }

        [Test]
        public void DependentsAreTheOtherComponentsThatRequireATypeTheRemovedOneIs()
        {
            Assert.That(ComponentRules.Dependents(typeof(Body), new[] { typeof(Transform), typeof(FastMover) }), Is.EqualTo(new[] { typeof(FastMover) }));
            Assert.That(ComponentRules.Dependents(typeof(BoxCollider), new[] { typeof(Trigger) }), Is.EqualTo(new[] { typeof(Trigger) }));
            Assert.That(ComponentRules.Dependents(typeof(Body), new[] { typeof(Transform), typeof(Trigger) }), Is.Empty);
        }

        [Test]
        public void AnotherComponentOfTheRequiredTypeKeepsTheRequirementMet()
        {
            Assert.That(ComponentRules.Dependents(typeof(BoxCollider), new[] { typeof(Trigger), typeof(SphereCollider) }), Is.Empty);
        }

        private sealed class Item
        {
            public readonly Type Type;
            public Item(Type type) => Type = type;
            public override string ToString() => Type.Name;
        }

        [Test]
        public void RemovalOrderRemovesWhatNeedsAComponentBeforeIt()
        {
            var transform = new Item(typeof(Transform));
            var body = new Item(typeof(Body));
            var mover = new Item(typeof(Mover));
            var collider = new Item(typeof(BoxCollider));
            var trigger = new Item(typeof(Trigger));
            var all = new List<Item> { transform, body, collider, mover, trigger };
            var order = ComponentRules.RemovalOrder(all, new[] { body, collider, mover, trigger }, item => item.Type);
            Assert.That(order, Has.Count.EqualTo(4));
            Assert.That(order.IndexOf(mover), Is.LessThan(order.IndexOf(body)));
            Assert.That(order.IndexOf(trigger), Is.LessThan(order.IndexOf(collider)));
        }

        [Test]
        public void RemovalOrderKeepsTheGivenOrderWhereNothingNeedsAnother()
        {
            var body = new Item(typeof(Body));
            var collider = new Item(typeof(BoxCollider));
            var all = new List<Item> { new Item(typeof(Transform)), body, collider };
            Assert.That(ComponentRules.RemovalOrder(all, new[] { body, collider }, item => item.Type), Is.EqualTo(new[] { body, collider }));
            Assert.That(ComponentRules.RemovalOrder(all, new[] { collider, body }, item => item.Type), Is.EqualTo(new[] { collider, body }));
        }

        [Test]
        public void RemovalOrderPutsLastAComponentThatOneLeftOnTheGameObjectNeeds()
        {
            var body = new Item(typeof(Body));
            var collider = new Item(typeof(BoxCollider));
            var all = new List<Item> { new Item(typeof(Transform)), body, collider, new Item(typeof(Mover)) };
            // Still removed in its turn: Unity then refuses it, and the call fails saying the Mover needs it.
            Assert.That(ComponentRules.RemovalOrder(all, new[] { body, collider }, item => item.Type), Is.EqualTo(new[] { collider, body }));
        }
    }
}
