using System;
using System.Collections.Generic;
using System.Linq;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;
using Object = UnityEngine.Object;

namespace Tether.Unity.Prefabs
{
    /// <summary>
    /// duplicate_gameobject's copies. Object.Instantiate copies a GameObject without its prefab
    /// link, so the outermost root of a prefab instance is copied as Edit > Duplicate copies it: a
    /// new instance of the same prefab (PrefabUtility.InstantiatePrefab, "similar to Instantiate
    /// but creates a prefab connection") given the original's overrides: its property overrides
    /// (Get/SetPropertyModifications; a reference to an object of the original points at that
    /// object's copy, as Instantiate makes it), the components removed from it (removed from the
    /// copy too), and the GameObjects added to it (copied the same way under the copies of their
    /// parents, at the same place). Components added to it are not copied: the note says which.
    /// Anything else (the original no instance root, or a nested one) is copied with
    /// Object.Instantiate as before. Which copy, and the note, are DuplicateReport's (Unity-free).
    /// The caller registers the copy's Undo once it is whole.
    /// </summary>
    internal static class InstanceCopies
    {
        /// <summary>A copy of <paramref name="original"/> under <paramref name="parent"/>, named <paramref name="name"/>; <paramref name="report"/> says what it is and what it lacks.</summary>
        public static GameObject Copy(GameObject original, Transform parent, string name, DuplicateReport report)
        {
            var outermost = PrefabUtility.IsOutermostPrefabInstanceRoot(original);
            var asset = outermost ? PrefabUtility.GetCorrespondingObjectFromSource(original) : null;
            report.OriginalPath = SceneGraph.PathOf(original);
            report.Link = DuplicateReport.LinkFor(PrefabUtility.IsPartOfPrefabInstance(original), outermost, PrefabUtility.IsAnyPrefabInstanceRoot(original), asset != null);
            if (report.Link != CopyLink.NotAnInstance) report.AssetPath = PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot(original);
            var run = new Run(original);
            GameObject copy;
            try
            {
                copy = run.Copy(original, parent, name, report.Link == CopyLink.Instance ? asset : null, nested: false);
            }
            catch
            {
                // Not yet registered with Undo: a copy left half-made would stay in the scene for good.
                run.Discard();
                throw;
            }
            run.Finish(report);
            return copy;
        }

        /// <summary>The prefab asset a GameObject added to an instance is copied as an instance of: its own, when it is an outermost instance root.</summary>
        private static GameObject LinkableAsset(GameObject gameObject) =>
            PrefabUtility.IsOutermostPrefabInstanceRoot(gameObject) ? PrefabUtility.GetCorrespondingObjectFromSource(gameObject) : null;

        private sealed class Run
        {
            private readonly GameObject _originalTop;
            private Transform _top;

            /// <summary>The original's GameObjects and components by their copies, for the references the copy's overrides make.</summary>
            private readonly Dictionary<Object, Object> _copies = new Dictionary<Object, Object>();

            private readonly List<(GameObject Anchor, string Relative)> _unlinked = new List<(GameObject, string)>();
            private readonly List<(GameObject Owner, string Type)> _addedComponents = new List<(GameObject, string)>();
            private readonly List<(GameObject Owner, string Type)> _removedKept = new List<(GameObject, string)>();
            private readonly List<GameObject> _addedParentsMissing = new List<GameObject>();

            public Run(GameObject originalTop)
            {
                _originalTop = originalTop;
            }

            /// <summary>An instance of <paramref name="asset"/> with the original's overrides, or (no asset) a plain copy.</summary>
            public GameObject Copy(GameObject original, Transform parent, string name, GameObject asset, bool nested)
            {
                if (asset != null) return CopyInstance(original, parent, name, asset);
                var copy = Object.Instantiate(original, parent);
                copy.name = name;
                if (_top == null) _top = copy.transform;
                if (nested) MapSameShape(original, copy);
                NoteInstancesInside(original.transform, copy, "", includeSelf: nested);
                return copy;
            }

            private GameObject CopyInstance(GameObject original, Transform parent, string name, GameObject asset)
            {
                var copy = (GameObject)PrefabUtility.InstantiatePrefab(asset, parent);
                if (_top == null) _top = copy.transform;
                var copyBySource = BySource(copy, null);
                var added = PrefabUtility.GetAddedGameObjects(original).Select(a => a.instanceGameObject).ToList();
                foreach (var pair in BySource(original, added))
                {
                    if (copyBySource.TryGetValue(pair.Key, out var counterpart)) _copies[pair.Value] = counterpart;
                }

                var placed = new List<(Transform Copy, int Index)>();
                foreach (var gameObject in added)
                {
                    var parentOriginal = gameObject.transform.parent.gameObject;
                    if (!_copies.TryGetValue(parentOriginal, out var parentCopy))
                    {
                        _addedParentsMissing.Add(parentOriginal);
                        continue;
                    }
                    var child = Copy(gameObject, ((GameObject)parentCopy).transform, gameObject.name, LinkableAsset(gameObject), nested: true);
                    placed.Add((child.transform, gameObject.transform.GetSiblingIndex()));
                }

                var modifications = PrefabUtility.GetPropertyModifications(original) ?? Array.Empty<PropertyModification>();
                foreach (var modification in modifications)
                {
                    if (modification.objectReference != null && _copies.TryGetValue(modification.objectReference, out var copied)) modification.objectReference = copied;
                }
                PrefabUtility.SetPropertyModifications(copy, modifications);

                copy.name = name;
                copy.transform.SetAsLastSibling();
                foreach (var (child, index) in placed.OrderBy(p => p.Index)) child.SetSiblingIndex(index);
                RemoveAsInOriginal(original, copyBySource);
                foreach (var addedComponent in PrefabUtility.GetAddedComponents(original))
                {
                    var owner = addedComponent.instanceComponent.gameObject;
                    _addedComponents.Add((_copies.TryGetValue(owner, out var ownerCopy) ? (GameObject)ownerCopy : owner, addedComponent.instanceComponent.GetType().Name));
                }
                InstanceEdits.Record(copy);
                InstanceEdits.Record(copy.transform);
                return copy;
            }

            /// <summary>Removes from the copy the components removed from the original instance, each after those that need it; notes those Unity keeps.</summary>
            private void RemoveAsInOriginal(GameObject original, Dictionary<Object, Object> copyBySource)
            {
                var doomed = new List<Component>();
                foreach (var removed in PrefabUtility.GetRemovedComponents(original))
                {
                    if (removed.assetComponent != null && copyBySource.TryGetValue(removed.assetComponent, out var counterpart) && counterpart is Component component) doomed.Add(component);
                    else _removedKept.Add((removed.containingInstanceGameObject, removed.assetComponent != null ? removed.assetComponent.GetType().Name : "Component"));
                }
                foreach (var onOne in doomed.GroupBy(c => c.gameObject))
                {
                    var all = onOne.Key.GetComponents(typeof(Component)).Where(c => c != null).ToList();
                    foreach (var component in ComponentRules.RemovalOrder(all, onOne.ToList(), c => c.GetType()))
                    {
                        var type = component.GetType().Name;
                        try
                        {
                            Object.DestroyImmediate(component);
                        }
                        catch (InvalidOperationException)
                        {
                            // Kept: noted below.
                        }
                        // Unity's == is true for a destroyed component.
                        if (component != null) _removedKept.Add((onOne.Key, type));
                    }
                }
            }

            /// <summary>The GameObjects and components under <paramref name="root"/> (itself included, the subtrees of <paramref name="skip"/> left out) by the prefab object each comes from.</summary>
            private static Dictionary<Object, Object> BySource(GameObject root, ICollection<GameObject> skip)
            {
                var bySource = new Dictionary<Object, Object>();
                void Add(Object instanceObject)
                {
                    var source = PrefabUtility.GetCorrespondingObjectFromSource(instanceObject);
                    if (source != null) bySource[source] = instanceObject;
                }
                void Visit(GameObject gameObject)
                {
                    if (skip != null && skip.Contains(gameObject)) return;
                    Add(gameObject);
                    foreach (var component in gameObject.GetComponents(typeof(Component)))
                    {
                        if (component != null) Add(component);
                    }
                    var transform = gameObject.transform;
                    for (var i = 0; i < transform.childCount; i++) Visit(transform.GetChild(i).gameObject);
                }
                Visit(root);
                return bySource;
            }

            /// <summary>Pairs a plain copy's objects with the original's: Instantiate keeps the hierarchy and the components' order.</summary>
            private void MapSameShape(GameObject original, GameObject copy)
            {
                _copies[original] = copy;
                var from = original.GetComponents(typeof(Component));
                var to = copy.GetComponents(typeof(Component));
                if (from.Length == to.Length)
                {
                    for (var i = 0; i < from.Length; i++)
                    {
                        if (from[i] != null && to[i] != null) _copies[from[i]] = to[i];
                    }
                }
                var a = original.transform;
                var b = copy.transform;
                if (a.childCount != b.childCount) return;
                for (var i = 0; i < a.childCount; i++) MapSameShape(a.GetChild(i).gameObject, b.GetChild(i).gameObject);
            }

            /// <summary>Notes the prefab instance roots a plain copy copied without their link (the topmost of each).</summary>
            private void NoteInstancesInside(Transform original, GameObject anchor, string relative, bool includeSelf)
            {
                if (includeSelf && PrefabUtility.IsAnyPrefabInstanceRoot(original.gameObject))
                {
                    _unlinked.Add((anchor, relative));
                    return;
                }
                for (var i = 0; i < original.childCount; i++)
                {
                    var child = original.GetChild(i);
                    NoteInstancesInside(child, anchor, DuplicateReport.JoinRelative(relative, child.gameObject.name), includeSelf: true);
                }
            }

            /// <summary>Destroys the copy as far as it was made (the call failed half-way).</summary>
            public void Discard()
            {
                if (_top != null) Object.DestroyImmediate(_top.gameObject);
                _top = null;
            }

            /// <summary>Puts what the copy lacks into <paramref name="report"/>, with paths inside the finished copy.</summary>
            public void Finish(DuplicateReport report)
            {
                report.UnlinkedInstances.AddRange(_unlinked.Select(u => DuplicateReport.JoinRelative(RelativeTo(u.Anchor.transform, _top), u.Relative)));
                report.AddedComponentsLeftOut.AddRange(_addedComponents.Select(c => new ComponentAtPath { Path = InCopy(c.Owner), Type = c.Type }));
                report.RemovedComponentsKept.AddRange(_removedKept.Select(c => new ComponentAtPath { Path = InCopy(c.Owner), Type = c.Type }));
                report.AddedGameObjectsLeftOut.AddRange(_addedParentsMissing.Select(p => RelativeTo(p.transform, _originalTop.transform)));
            }

            /// <summary>A GameObject's path relative to the copy (one of the original's: relative to the original, whose shape the copy has).</summary>
            private string InCopy(GameObject gameObject) =>
                SceneGraph.IsWithin(gameObject.transform, _top) ? RelativeTo(gameObject.transform, _top) : RelativeTo(gameObject.transform, _originalTop.transform);

            /// <summary>"Lid/Handle" for a GameObject below <paramref name="top"/>, "" for <paramref name="top"/> itself.</summary>
            private static string RelativeTo(Transform transform, Transform top)
            {
                var names = new List<string>();
                for (var current = transform; current != null && current != top; current = current.parent) names.Add(current.gameObject.name);
                names.Reverse();
                return string.Join("/", names);
            }
        }
    }
}
