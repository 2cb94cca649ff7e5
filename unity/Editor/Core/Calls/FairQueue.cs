using System.Collections.Generic;

namespace Tether.Core.Calls
{
    /// <summary>
    /// The queue of calls waiting for the main thread, fair across connections (protocol.md §8.8):
    /// each connection has its own lane, first come first served within it, and lanes take turns,
    /// so a client that queued fifty calls cannot starve another that queued one.
    /// </summary>
    internal sealed class FairQueue<T> where T : class
    {
        private readonly Dictionary<string, List<T>> _lanes = new Dictionary<string, List<T>>();
        /// <summary>Lanes with work, in the order they get their next turn.</summary>
        private readonly List<string> _turnOrder = new List<string>();
        private int _count;

        public int Count => _count;

        public void Enqueue(string lane, T item)
        {
            lane = lane ?? "";
            if (_lanes.TryGetValue(lane, out var items)) items.Add(item);
            else
            {
                _lanes[lane] = new List<T> { item };
                _turnOrder.Add(lane);
            }
            _count++;
        }

        /// <summary>The next item: the first of the lane whose turn it is; that lane goes to the back.</summary>
        public bool TryDequeue(out T item)
        {
            item = null;
            if (_turnOrder.Count == 0) return false;
            var lane = _turnOrder[0];
            _turnOrder.RemoveAt(0);
            var items = _lanes[lane];
            item = items[0];
            items.RemoveAt(0);
            if (items.Count > 0) _turnOrder.Add(lane);
            else _lanes.Remove(lane);
            _count--;
            return true;
        }

        /// <summary>Removes a queued item; false when it is not queued (running already, or unknown).</summary>
        public bool Remove(T item)
        {
            foreach (var pair in _lanes)
            {
                var index = pair.Value.IndexOf(item);
                if (index < 0) continue;
                pair.Value.RemoveAt(index);
                _count--;
                if (pair.Value.Count == 0)
                {
                    _lanes.Remove(pair.Key);
                    _turnOrder.Remove(pair.Key);
                }
                return true;
            }
            return false;
        }

        /// <summary>The queued items in the order they would run (lanes taking turns), at most <paramref name="max"/>.</summary>
        public List<T> InOrder(int max)
        {
            var queues = new List<Queue<T>>();
            foreach (var lane in _turnOrder) queues.Add(new Queue<T>(_lanes[lane]));
            var order = new List<T>();
            var any = true;
            while (any && order.Count < max)
            {
                any = false;
                foreach (var queue in queues)
                {
                    if (queue.Count == 0) continue;
                    any = true;
                    order.Add(queue.Dequeue());
                    if (order.Count >= max) break;
                }
            }
            return order;
        }

        /// <summary>How many queued items run before this one (0 = next), or -1 when it is not queued.</summary>
        public int Position(T item)
        {
            var queues = new List<Queue<T>>();
            foreach (var lane in _turnOrder) queues.Add(new Queue<T>(_lanes[lane]));
            var ahead = 0;
            var any = true;
            while (any)
            {
                any = false;
                foreach (var queue in queues)
                {
                    if (queue.Count == 0) continue;
                    any = true;
                    if (queue.Dequeue() == item) return ahead;
                    ahead++;
                }
            }
            return -1;
        }
    }
}
