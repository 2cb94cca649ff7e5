using System.Collections.Generic;
using System.Linq;

namespace Tether.Unity.Prefabs
{
    /// <summary>What duplicate_gameobject's copy is, from the original's place in a prefab instance.</summary>
    internal enum CopyLink
    {
        /// <summary>The original is no part of a prefab instance: a plain copy (Object.Instantiate).</summary>
        NotAnInstance,

        /// <summary>The original is an instance's outermost root: the copy is an instance of the same prefab, with its overrides, as Edit > Duplicate makes it.</summary>
        Instance,

        /// <summary>An outermost root whose prefab asset is gone: a plain copy.</summary>
        MissingAsset,

        /// <summary>The root of a prefab nested in another instance: a plain copy (its overrides live in the outer instance, in terms of the outer prefab).</summary>
        NestedInstance,

        /// <summary>A GameObject of an instance that is not a root: a plain copy (an added GameObject when it stays under the instance).</summary>
        InsideInstance,
    }

    /// <summary>
    /// What duplicate_gameobject says of a copy made from a prefab instance, or holding some: which
    /// copy it is (<see cref="LinkFor"/>) and what of the original did not come over, in the
    /// result's "note" (<see cref="Note"/>); nothing when the copy is whole. Paths inside the copy
    /// are kept relative to it ("" the copy itself, "Lid/Handle" below it) until its final path is known.
    /// </summary>
    internal sealed class DuplicateReport
    {
        public CopyLink Link = CopyLink.NotAnInstance;

        /// <summary>The original's path, for the note.</summary>
        public string OriginalPath;

        /// <summary>The prefab asset of the instance the original is (part of).</summary>
        public string AssetPath;

        /// <summary>Prefab instance roots copied as plain GameObjects inside the copy (a plain copy holds no instance).</summary>
        public readonly List<string> UnlinkedInstances = new List<string>();

        /// <summary>Components added to the original instance, which the copy does not have.</summary>
        public readonly List<ComponentAtPath> AddedComponentsLeftOut = new List<ComponentAtPath>();

        /// <summary>Components removed from the original instance that Unity would not remove from the copy.</summary>
        public readonly List<ComponentAtPath> RemovedComponentsKept = new List<ComponentAtPath>();

        /// <summary>GameObjects added to the original instance under an object the copy has no counterpart of (their parent's path).</summary>
        public readonly List<string> AddedGameObjectsLeftOut = new List<string>();

        /// <summary>
        /// Which copy to make: only an outermost instance root whose prefab is there becomes an
        /// instance of it. PrefabUtility.IsPartOfPrefabInstance, IsOutermostPrefabInstanceRoot,
        /// IsAnyPrefabInstanceRoot and GetCorrespondingObjectFromSource (not null) give the facts.
        /// </summary>
        public static CopyLink LinkFor(bool partOfInstance, bool outermostRoot, bool anyRoot, bool assetFound)
        {
            if (!partOfInstance) return CopyLink.NotAnInstance;
            if (outermostRoot) return assetFound ? CopyLink.Instance : CopyLink.MissingAsset;
            return anyRoot ? CopyLink.NestedInstance : CopyLink.InsideInstance;
        }

        /// <summary>"/Env/Crate (1)" with "Lid" → "/Env/Crate (1)/Lid"; "" → the copy's path.</summary>
        public static string PathIn(string copyPath, string relative) =>
            string.IsNullOrEmpty(relative) ? copyPath : copyPath.TrimEnd('/') + "/" + relative;

        /// <summary>"Lid" and "Bolt" → "Lid/Bolt"; either empty → the other.</summary>
        public static string JoinRelative(string first, string second) =>
            string.IsNullOrEmpty(first) ? second ?? "" : string.IsNullOrEmpty(second) ? first : first + "/" + second;

        /// <summary>The note for a copy now at <paramref name="copyPath"/>, or null when it is a whole copy.</summary>
        public string Note(string copyPath)
        {
            var sentences = new List<string>();
            var original = "\"" + OriginalPath + "\"";
            var asset = "\"" + AssetPath + "\"";
            switch (Link)
            {
                case CopyLink.MissingAsset:
                    sentences.Add("The copy is a plain GameObject: the prefab asset of " + original + " is missing, so the copy cannot be an instance of it.");
                    break;
                case CopyLink.NestedInstance:
                    sentences.Add("The copy is a plain GameObject, not an instance of " + asset + ": " + original + " is a prefab nested in another instance, whose overrides Unity's API cannot carry over to a new instance (instantiate_prefab makes one without them).");
                    break;
                case CopyLink.InsideInstance:
                    sentences.Add("The copy is a plain GameObject: " + original + " is part of an instance of " + asset + " but not its root, and only a whole instance is copied as an instance.");
                    break;
            }
            if (UnlinkedInstances.Count > 0)
            {
                sentences.Add("Prefab instances inside it were copied as plain GameObjects, without their prefab link: " + Quoted(UnlinkedInstances.Select(p => PathIn(copyPath, p))) + ".");
            }
            if (AddedComponentsLeftOut.Count > 0)
            {
                sentences.Add("Not copied: the components added to the original instance (" + Listed(AddedComponentsLeftOut, copyPath) + "); add them with add_component.");
            }
            if (AddedGameObjectsLeftOut.Count > 0)
            {
                sentences.Add("Not copied: GameObjects added to the original instance under " + Quoted(AddedGameObjectsLeftOut.Select(p => PathIn(OriginalPath, p))) + ", which the copy has no counterpart of.");
            }
            if (RemovedComponentsKept.Count > 0)
            {
                sentences.Add("Still on the copy: components removed from the original instance that Unity would not remove (" + Listed(RemovedComponentsKept, copyPath) + "); remove_component says why.");
            }
            return sentences.Count == 0 ? null : string.Join(" ", sentences);
        }

        private static string Quoted(IEnumerable<string> paths) => string.Join(", ", paths.Select(p => "\"" + p + "\""));

        private static string Listed(IEnumerable<ComponentAtPath> components, string copyPath) =>
            string.Join(", ", components.Select(c => c.Type + " on \"" + PathIn(copyPath, c.Path) + "\""));
    }
}
