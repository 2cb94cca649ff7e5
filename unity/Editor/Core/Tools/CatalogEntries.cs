using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>A fixed resource: its descriptor and how to read it.</summary>
    internal sealed class ResourceEntry
    {
        public JObject Descriptor;
        public Func<string, Task<JArray>> Read;
        public string Key => (string)Descriptor["uri"];
    }

    /// <summary>A resource template: its descriptor, its compiled template, how to read a URI it matches, and completions for its variables.</summary>
    internal sealed class TemplateEntry
    {
        public JObject Descriptor;
        public UriTemplate Template;
        public Func<string, IReadOnlyDictionary<string, string>, Task<JArray>> Read;
        public Func<string, string, IEnumerable<string>> Complete;
        public string Key => (string)Descriptor["uriTemplate"];
    }

    /// <summary>A prompt: its descriptor, how to get its messages, and completions for its arguments.</summary>
    internal sealed class PromptEntry
    {
        public JObject Descriptor;
        public Func<JObject, Task<JObject>> Get;
        public Func<string, string, JObject, IEnumerable<string>> Complete;
        public string Key => (string)Descriptor["name"];
    }

    /// <summary>One immutable set of entries of a kind, in the order they were added; a change makes a new one.</summary>
    internal sealed class EntrySet<T> where T : class
    {
        private readonly Func<T, string> _key;
        private readonly Func<T, JObject> _descriptor;
        private readonly Dictionary<string, T> _byKey;

        public EntrySet(Func<T, string> key, Func<T, JObject> descriptor, List<T> entries)
        {
            _key = key;
            _descriptor = descriptor;
            Entries = entries;
            _byKey = new Dictionary<string, T>(StringComparer.Ordinal);
            foreach (var entry in entries) _byKey[key(entry)] = entry;
        }

        public IReadOnlyList<T> Entries { get; }

        public T Find(string key) => key != null && _byKey.TryGetValue(key, out var entry) ? entry : null;

        /// <summary>With the entry added, or put in place of the one with its key.</summary>
        public EntrySet<T> With(T entry)
        {
            var entries = Entries.ToList();
            var index = entries.FindIndex(e => _key(e) == _key(entry));
            if (index >= 0) entries[index] = entry;
            else entries.Add(entry);
            return new EntrySet<T>(_key, _descriptor, entries);
        }

        public EntrySet<T> Without(string key) => new EntrySet<T>(_key, _descriptor, Entries.Where(e => _key(e) != key).ToList());

        /// <summary>The descriptors, copied (callers may keep or change them).</summary>
        public JArray Descriptors() => new JArray(Entries.Select(e => _descriptor(e).DeepClone()));

        /// <summary>Whether clients would see the same list.</summary>
        public bool SameAs(EntrySet<T> other) =>
            Entries.Count == other.Entries.Count && Entries.Zip(other.Entries, (a, b) => JToken.DeepEquals(_descriptor(a), _descriptor(b))).All(same => same);
    }
}
