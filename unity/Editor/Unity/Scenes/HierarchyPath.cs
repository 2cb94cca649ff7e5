using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Paths of GameObjects ("/Environment/Lamp"), without Unity: names joined by "/", from a
    /// scene root. Names may repeat among siblings, as in Unity: a path means the first object,
    /// in hierarchy order, whose path it is (the sandbox's rule). Generic over the node type so
    /// the same code walks GameObjects in Unity and plain trees in tests.
    /// </summary>
    internal static class HierarchyPath
    {
        /// <summary>The names of a path ("Environment/Lamp" and "/Environment/Lamp" are the same path).</summary>
        public static string[] Split(string path)
        {
            if (path == null) throw new ArgumentNullException(nameof(path));
            var normalized = path.StartsWith("/", StringComparison.Ordinal) ? path.Substring(1) : path;
            return normalized.Split('/');
        }

        /// <summary>"/" + the names joined by "/".</summary>
        public static string Join(IEnumerable<string> names) => "/" + string.Join("/", names);

        /// <summary>"/" prefixed when missing: how a path given by a caller is shown back.</summary>
        public static string Normalize(string path) => path == null ? null : path.StartsWith("/", StringComparison.Ordinal) ? path : "/" + path;

        /// <summary>
        /// The first node in depth-first hierarchy order whose path is <paramref name="path"/>,
        /// or null. It backtracks: with two siblings "A", "/A/B" finds B under the second A when
        /// only that one has it.
        /// </summary>
        public static T Find<T>(IEnumerable<T> roots, Func<T, string> nameOf, Func<T, IEnumerable<T>> childrenOf, string path) where T : class
        {
            var names = Split(path);
            return Find(roots, nameOf, childrenOf, names, 0);
        }

        private static T Find<T>(IEnumerable<T> level, Func<T, string> nameOf, Func<T, IEnumerable<T>> childrenOf, string[] names, int index) where T : class
        {
            foreach (var node in level)
            {
                if (!string.Equals(nameOf(node), names[index], StringComparison.Ordinal)) continue;
                if (index == names.Length - 1) return node;
                var found = Find(childrenOf(node), nameOf, childrenOf, names, index + 1);
                if (found != null) return found;
            }
            return null;
        }

        /// <summary>Every node of the trees, depth-first, parents before children.</summary>
        public static IEnumerable<T> Walk<T>(IEnumerable<T> roots, Func<T, IEnumerable<T>> childrenOf)
        {
            var stack = new Stack<IEnumerator<T>>();
            stack.Push(roots.GetEnumerator());
            while (stack.Count > 0)
            {
                var level = stack.Peek();
                if (!level.MoveNext())
                {
                    stack.Pop().Dispose();
                    continue;
                }
                yield return level.Current;
                stack.Push(childrenOf(level.Current).GetEnumerator());
            }
        }

        /// <summary>How many nodes a subtree holds, its root included.</summary>
        public static int CountSubtree<T>(T root, Func<T, IEnumerable<T>> childrenOf) => Walk(new[] { root }, childrenOf).Count();

        /// <summary>
        /// get_hierarchy's nodes: { name, path, active, components, children? } for each root,
        /// <paramref name="depth"/> levels deep (1: the roots alone); children only where there are some.
        /// <paramref name="addDetails"/> adds what else a node says (its prefab status) before its children.
        /// </summary>
        public static JArray Describe<T>(
            IEnumerable<T> roots, int depth, string parentPath,
            Func<T, string> nameOf, Func<T, bool> activeOf, Func<T, IEnumerable<string>> componentsOf, Func<T, IEnumerable<T>> childrenOf,
            Action<JObject, T> addDetails = null)
        {
            var nodes = new JArray();
            foreach (var node in roots)
            {
                var path = (parentPath == "/" ? "" : parentPath) + "/" + nameOf(node);
                var json = new JObject
                {
                    ["name"] = nameOf(node),
                    ["path"] = path,
                    ["active"] = activeOf(node),
                    ["components"] = new JArray(componentsOf(node).ToArray()),
                };
                addDetails?.Invoke(json, node);
                var kids = childrenOf(node).ToList();
                if (kids.Count > 0 && depth > 1) json["children"] = Describe(kids, depth - 1, path, nameOf, activeOf, componentsOf, childrenOf, addDetails);
                nodes.Add(json);
            }
            return nodes;
        }
    }
}
