using NUnit.Framework;
using Tether.Unity.Prefabs;

namespace Tether.Unity.Tests.Prefabs
{
    /// <summary>
    /// Which copy duplicate_gameobject makes of a GameObject of a prefab instance (an instance of
    /// the same prefab only for an outermost instance root, as Edit > Duplicate keeps its link;
    /// Object.Instantiate alone loses it), and what its note says the copy lacks.
    /// </summary>
    [TestFixture]
    public class DuplicateReportTests
    {
        [Test]
        public void AnOutermostInstanceRootIsCopiedAsAnInstance()
        {
            Assert.That(DuplicateReport.LinkFor(partOfInstance: true, outermostRoot: true, anyRoot: true, assetFound: true), Is.EqualTo(CopyLink.Instance));
        }

        [Test]
        public void APlainGameObjectIsCopiedPlainAsBefore()
        {
            Assert.That(DuplicateReport.LinkFor(partOfInstance: false, outermostRoot: false, anyRoot: false, assetFound: false), Is.EqualTo(CopyLink.NotAnInstance));
        }

        [Test]
        public void AnInstanceWhosePrefabIsMissingIsCopiedPlain()
        {
            Assert.That(DuplicateReport.LinkFor(partOfInstance: true, outermostRoot: true, anyRoot: true, assetFound: false), Is.EqualTo(CopyLink.MissingAsset));
        }

        [Test]
        public void ANestedInstanceRootAndAnObjectInsideAnInstanceAreCopiedPlain()
        {
            Assert.That(DuplicateReport.LinkFor(partOfInstance: true, outermostRoot: false, anyRoot: true, assetFound: false), Is.EqualTo(CopyLink.NestedInstance));
            Assert.That(DuplicateReport.LinkFor(partOfInstance: true, outermostRoot: false, anyRoot: false, assetFound: false), Is.EqualTo(CopyLink.InsideInstance));
        }

        [Test]
        public void AWholeCopyHasNoNote()
        {
            Assert.That(new DuplicateReport().Note("/Crate (1)"), Is.Null);
            var instance = new DuplicateReport { Link = CopyLink.Instance, OriginalPath = "/Crate", AssetPath = "Assets/Crate.prefab" };
            Assert.That(instance.Note("/Crate (1)"), Is.Null);
        }

        [Test]
        public void APlainCopyOfPartOfAnInstanceSaysWhyItIsNotLinked()
        {
            var inside = new DuplicateReport { Link = CopyLink.InsideInstance, OriginalPath = "/Crate/Lid", AssetPath = "Assets/Crate.prefab" };
            Assert.That(inside.Note("/Crate/Lid (1)"), Is.EqualTo(
                "The copy is a plain GameObject: \"/Crate/Lid\" is part of an instance of \"Assets/Crate.prefab\" but not its root, and only a whole instance is copied as an instance."));

            var nested = new DuplicateReport { Link = CopyLink.NestedInstance, OriginalPath = "/Shelf/Crate", AssetPath = "Assets/Crate.prefab" };
            Assert.That(nested.Note("/Shelf/Crate (1)"), Does.StartWith("The copy is a plain GameObject, not an instance of \"Assets/Crate.prefab\": \"/Shelf/Crate\" is a prefab nested in another instance"));

            var missing = new DuplicateReport { Link = CopyLink.MissingAsset, OriginalPath = "/Crate", AssetPath = "Assets/Crate.prefab" };
            Assert.That(missing.Note("/Crate (1)"), Does.Contain("the prefab asset of \"/Crate\" is missing"));
        }

        [Test]
        public void InstancesInsideAPlainCopyAreNamedAtTheirPlaceInTheCopy()
        {
            var report = new DuplicateReport { OriginalPath = "/Shelf" };
            report.UnlinkedInstances.Add("Crate");
            report.UnlinkedInstances.Add("Box/Crate");
            Assert.That(report.Note("/Shelf (1)"), Is.EqualTo(
                "Prefab instances inside it were copied as plain GameObjects, without their prefab link: \"/Shelf (1)/Crate\", \"/Shelf (1)/Box/Crate\"."));
        }

        [Test]
        public void WhatAnInstanceCopyLacksIsListedWithPathsInTheCopy()
        {
            var report = new DuplicateReport { Link = CopyLink.Instance, OriginalPath = "/Env/Crate", AssetPath = "Assets/Crate.prefab" };
            report.AddedComponentsLeftOut.Add(new ComponentAtPath { Path = "", Type = "Rigidbody" });
            report.AddedComponentsLeftOut.Add(new ComponentAtPath { Path = "Lid", Type = "AudioSource" });
            report.RemovedComponentsKept.Add(new ComponentAtPath { Path = "Lid", Type = "BoxCollider" });
            report.AddedGameObjectsLeftOut.Add("Lid");
            Assert.That(report.Note("/Env/Crate (1)"), Is.EqualTo(
                "Not copied: the components added to the original instance (Rigidbody on \"/Env/Crate (1)\", AudioSource on \"/Env/Crate (1)/Lid\"); add them with add_component. " +
                "Not copied: GameObjects added to the original instance under \"/Env/Crate/Lid\", which the copy has no counterpart of. " +
                "Still on the copy: components removed from the original instance that Unity would not remove (BoxCollider on \"/Env/Crate (1)/Lid\"); remove_component says why."));
        }

        [TestCase("", "", "")]
        [TestCase("", "Lid", "Lid")]
        [TestCase("Lid", "", "Lid")]
        [TestCase("Lid", "Bolt", "Lid/Bolt")]
        public void RelativePathsJoin(string first, string second, string joined)
        {
            Assert.That(DuplicateReport.JoinRelative(first, second), Is.EqualTo(joined));
        }

        [TestCase("/Crate (1)", "", "/Crate (1)")]
        [TestCase("/Crate (1)", "Lid/Bolt", "/Crate (1)/Lid/Bolt")]
        public void PathsInTheCopy(string copyPath, string relative, string path)
        {
            Assert.That(DuplicateReport.PathIn(copyPath, relative), Is.EqualTo(path));
        }
    }
}
