using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    [TestFixture]
    public class HierarchyPathTests
    {
        /// <summary>A GameObject stand-in: a name, children, components.</summary>
        private sealed class Node
        {
            public Node(string name, params Node[] children)
            {
                Name = name;
                Children = children.ToList();
            }

            public string Name;
            public List<Node> Children;
            public bool Active = true;
        }

        private static Node FindIn(IEnumerable<Node> roots, string path) => HierarchyPath.Find(roots, n => n.Name, n => n.Children, path);

        [Test]
        public void SplitsWithOrWithoutTheLeadingSlash()
        {
            Assert.That(HierarchyPath.Split("/Environment/Lamp"), Is.EqualTo(new[] { "Environment", "Lamp" }));
            Assert.That(HierarchyPath.Split("Environment/Lamp"), Is.EqualTo(new[] { "Environment", "Lamp" }));
            Assert.That(HierarchyPath.Split("/Main Camera"), Is.EqualTo(new[] { "Main Camera" }));
            Assert.That(HierarchyPath.Join(new[] { "A", "B c" }), Is.EqualTo("/A/B c"));
            Assert.That(HierarchyPath.Normalize("A/B"), Is.EqualTo("/A/B"));
        }

        [Test]
        public void FindsByPath()
        {
            var lamp = new Node("Lamp");
            var roots = new[] { new Node("Main Camera"), new Node("Environment", new Node("Ground"), lamp) };
            Assert.That(FindIn(roots, "/Environment/Lamp"), Is.SameAs(lamp));
            Assert.That(FindIn(roots, "Environment/Lamp"), Is.SameAs(lamp));
            Assert.That(FindIn(roots, "/Lamp"), Is.Null, "a path starts at a root");
            Assert.That(FindIn(roots, "/Environment/lamp"), Is.Null, "names are case-sensitive, as in Unity");
            Assert.That(FindIn(roots, "/Environment/Lamp/"), Is.Null);
        }

        [Test]
        public void SiblingsSharingANameMeanTheFirstOneAtThePath()
        {
            var first = new Node("Enemy");
            var second = new Node("Enemy");
            Assert.That(FindIn(new[] { first, second }, "/Enemy"), Is.SameAs(first));
        }

        [Test]
        public void BacktracksThroughSiblingsSharingAName()
        {
            var gun = new Node("Gun");
            var roots = new[] { new Node("Enemy", new Node("Hat")), new Node("Enemy", gun) };
            Assert.That(FindIn(roots, "/Enemy/Gun"), Is.SameAs(gun));
        }

        [Test]
        public void WalksDepthFirstAndCountsSubtrees()
        {
            var roots = new[] { new Node("A", new Node("A1", new Node("A1a")), new Node("A2")), new Node("B") };
            Assert.That(HierarchyPath.Walk(roots, n => n.Children).Select(n => n.Name), Is.EqualTo(new[] { "A", "A1", "A1a", "A2", "B" }));
            Assert.That(HierarchyPath.CountSubtree(roots[0], n => n.Children), Is.EqualTo(4));
            Assert.That(HierarchyPath.CountSubtree(roots[1], n => n.Children), Is.EqualTo(1));
        }

        [Test]
        public void DescribesTheTreeAsGetHierarchyDoesToTheDepthAsked()
        {
            var roots = new[] { new Node("Env", new Node("Lamp", new Node("Bulb")) { Active = false }) };
            var nodes = HierarchyPath.Describe(roots, 2, "/", n => n.Name, n => n.Active, n => new[] { "Transform" }, n => n.Children);
            var env = nodes.Single();
            Assert.That((string)env["path"], Is.EqualTo("/Env"));
            Assert.That((bool)env["active"], Is.True);
            var lamp = env["children"].Single();
            Assert.That((string)lamp["path"], Is.EqualTo("/Env/Lamp"));
            Assert.That((bool)lamp["active"], Is.False);
            Assert.That(lamp["components"].Select(c => (string)c), Is.EqualTo(new[] { "Transform" }));
            Assert.That(((Newtonsoft.Json.Linq.JObject)lamp).ContainsKey("children"), Is.False, "depth 2 stops there");

            var leaf = HierarchyPath.Describe(new[] { new Node("Solo") }, int.MaxValue, "/", n => n.Name, n => true, n => new string[0], n => n.Children).Single();
            Assert.That(((Newtonsoft.Json.Linq.JObject)leaf).ContainsKey("children"), Is.False, "children only where there are some");

            var sub = HierarchyPath.Describe(roots[0].Children, 1, "/Env", n => n.Name, n => true, n => new string[0], n => n.Children).Single();
            Assert.That((string)sub["path"], Is.EqualTo("/Env/Lamp"), "a subtree keeps its full paths");
        }

        [Test]
        public void AddsEachNodesDetailsAtEveryLevelBeforeItsChildren()
        {
            var roots = new[] { new Node("Enemy", new Node("Gun")), new Node("Ground") };
            var nodes = HierarchyPath.Describe(roots, int.MaxValue, "/", n => n.Name, n => true, n => new string[0], n => n.Children,
                (json, n) =>
                {
                    // As SceneGraph adds a prefab instance's status, and nothing to other objects.
                    if (n.Name != "Ground") json["prefab"] = new Newtonsoft.Json.Linq.JObject { ["assetPath"] = "Assets/Enemy.prefab", ["instanceRoot"] = n.Name == "Enemy" };
                });
            var enemy = (Newtonsoft.Json.Linq.JObject)nodes[0];
            Assert.That((bool)enemy["prefab"]["instanceRoot"], Is.True);
            Assert.That(enemy.Properties().Select(p => p.Name), Is.EqualTo(new[] { "name", "path", "active", "components", "prefab", "children" }));
            Assert.That((string)enemy["children"][0]["prefab"]["assetPath"], Is.EqualTo("Assets/Enemy.prefab"), "children get theirs too");
            Assert.That((bool)enemy["children"][0]["prefab"]["instanceRoot"], Is.False);
            Assert.That(((Newtonsoft.Json.Linq.JObject)nodes[1]).ContainsKey("prefab"), Is.False);
        }
    }
}
