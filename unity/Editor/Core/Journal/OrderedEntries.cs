using System.Collections.Generic;

namespace Tether.Core.Journal
{
    /// <summary>
    /// Entries by callId that remember the order callIds arrived in, like a JavaScript Map:
    /// replacing an entry keeps its place, removing and adding again moves it to the end. The
    /// journal's order is the order calls are queued again after a reload, and a .NET
    /// Dictionary reuses freed slots, so its order cannot be trusted once anything was removed.
    /// </summary>
    internal sealed class OrderedEntries
    {
        private readonly Dictionary<string, LinkedListNode<JournalEntry>> _byId = new Dictionary<string, LinkedListNode<JournalEntry>>();
        private readonly LinkedList<JournalEntry> _inOrder = new LinkedList<JournalEntry>();

        public int Count => _byId.Count;

        public IEnumerable<JournalEntry> Values => _inOrder;

        public JournalEntry Get(string callId) => callId != null && _byId.TryGetValue(callId, out var node) ? node.Value : null;

        public void Set(string callId, JournalEntry entry)
        {
            if (_byId.TryGetValue(callId, out var node)) node.Value = entry;
            else _byId[callId] = _inOrder.AddLast(entry);
        }

        public bool Remove(string callId)
        {
            if (callId == null || !_byId.TryGetValue(callId, out var node)) return false;
            _byId.Remove(callId);
            _inOrder.Remove(node);
            return true;
        }

        public void Clear()
        {
            _byId.Clear();
            _inOrder.Clear();
        }

        /// <summary>A copy of the values, safe to walk while removing.</summary>
        public List<JournalEntry> Snapshot() => new List<JournalEntry>(_inOrder);
    }
}
