using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>
    /// The host's tools. Unity registers them on its main thread (after each domain reload)
    /// while the host loop reads them, so every change swaps in a new immutable snapshot and
    /// readers never lock: what they read is one consistent set. Changed fires, on the thread
    /// that made the change and outside any lock, only when what clients see (the descriptors)
    /// really changed: a tool registered again with the same descriptor after a reload updates
    /// its handler silently.
    /// </summary>
    public sealed class ToolRegistry
    {
        private readonly object _writing = new object();
        private volatile State _state = new State(new List<RegisteredTool>());

        /// <summary>The tools by name. Immutable: a change replaces it.</summary>
        public IReadOnlyDictionary<string, RegisteredTool> Snapshot => _state.ByName;

        /// <summary>
        /// The descriptors, in registration order (tools/list's "tools"): answerable while the main
        /// thread is blocked. Cached until the next change and shared: do not modify it (putting
        /// it in a response is fine; Newtonsoft copies a token that already has a parent).
        /// </summary>
        public JArray Descriptors() => _state.Descriptors;

        /// <summary>The set of tools clients see changed (send notifications/tools/list_changed).</summary>
        public event Action Changed;

        public bool TryGet(string name, out RegisteredTool tool)
        {
            tool = null;
            return name != null && _state.ByName.TryGetValue(name, out tool);
        }

        /// <summary>Adds a tool, or replaces the one of the same name (keeping its place in the list).</summary>
        public void Add(RegisteredTool tool)
        {
            if (tool == null) throw new ArgumentNullException(nameof(tool));
            Update(current =>
            {
                var tools = current.ToList();
                var index = tools.FindIndex(t => t.Name == tool.Name);
                if (index >= 0) tools[index] = tool;
                else tools.Add(tool);
                return tools;
            });
        }

        /// <summary>Removes the tool of that name; false when there was none.</summary>
        public bool Remove(string name)
        {
            var removed = false;
            Update(current =>
            {
                var tools = current.Where(t => t.Name != name).ToList();
                removed = tools.Count != current.Count;
                return tools;
            });
            return removed;
        }

        /// <summary>Replaces every tool at once (after a domain reload). Throws ArgumentException, changing nothing, when two share a name.</summary>
        public void Replace(IEnumerable<RegisteredTool> tools)
        {
            if (tools == null) throw new ArgumentNullException(nameof(tools));
            var list = tools.ToList();
            if (list.Any(t => t == null)) throw new ArgumentException("A tool in the list is null.", nameof(tools));
            var twice = list.GroupBy(t => t.Name).FirstOrDefault(g => g.Count() > 1);
            if (twice != null) throw new ArgumentException("Two tools are named \"" + twice.Key + "\": a name means one tool.", nameof(tools));
            Update(_ => list);
        }

        private void Update(Func<IReadOnlyList<RegisteredTool>, List<RegisteredTool>> change)
        {
            bool changed;
            lock (_writing)
            {
                var before = _state;
                var after = new State(change(before.Tools));
                changed = !before.SameDescriptors(after);
                _state = after;
            }
            if (changed) Changed?.Invoke();
        }

        private sealed class State
        {
            private readonly Lazy<JArray> _descriptors;

            public State(List<RegisteredTool> tools)
            {
                Tools = tools;
                var byName = new Dictionary<string, RegisteredTool>(StringComparer.Ordinal);
                foreach (var tool in tools) byName[tool.Name] = tool;
                ByName = byName;
                // Built on the first tools/list after a change, not at every change (a reload registers tools one by one).
                _descriptors = new Lazy<JArray>(() => new JArray(tools.Select(t => t.Descriptor)), System.Threading.LazyThreadSafetyMode.ExecutionAndPublication);
            }

            public IReadOnlyList<RegisteredTool> Tools { get; }
            public IReadOnlyDictionary<string, RegisteredTool> ByName { get; }
            public JArray Descriptors => _descriptors.Value;

            /// <summary>Whether clients would see the same list: same tools in the same order, with equal descriptors.</summary>
            public bool SameDescriptors(State other)
            {
                if (Tools.Count != other.Tools.Count) return false;
                for (var i = 0; i < Tools.Count; i++)
                {
                    var mine = Tools[i].Descriptor;
                    var theirs = other.Tools[i].Descriptor;
                    if (!ReferenceEquals(mine, theirs) && !JToken.DeepEquals(mine, theirs)) return false;
                }
                return true;
            }
        }
    }
}
