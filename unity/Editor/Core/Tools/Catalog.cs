using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// The resources, resource templates and prompts a host offers beside its tools (port of
    /// src/host/catalog.ts, protocol.md §7.11–7.13). Thread-safe as ToolRegistry is: Unity
    /// adds entries on its main thread while the host loop lists and reads them, so each change
    /// swaps in an immutable set. The read, get and complete functions run on the thread that
    /// asks (the host loop): one that needs the main thread posts there itself.
    /// </summary>
    public sealed class Catalog
    {
        /// <summary>Completion values returned at most (MCP's limit); "total" and "hasMore" tell the rest.</summary>
        public const int MaxCompletions = 100;

        /// <summary>Completion candidates counted at most, so a completer's endless sequence cannot hold the host.</summary>
        private const int MaxCounted = 1000000;

        private readonly object _writing = new object();
        private volatile EntrySet<ResourceEntry> _resources = new EntrySet<ResourceEntry>(e => e.Key, e => e.Descriptor, new List<ResourceEntry>());
        private volatile EntrySet<TemplateEntry> _templates = new EntrySet<TemplateEntry>(e => e.Key, e => e.Descriptor, new List<TemplateEntry>());
        private volatile EntrySet<PromptEntry> _prompts = new EntrySet<PromptEntry>(e => e.Key, e => e.Descriptor, new List<PromptEntry>());

        /// <summary>
        /// "resources" (a resource or template was added, replaced or removed: send
        /// notifications/resources/list_changed) or "prompts" (notifications/prompts/list_changed).
        /// Raised only when the descriptors clients see changed, on the thread that changed them.
        /// </summary>
        public event Action<string> Changed;

        /// <summary>A resource's content changed: send notifications/resources/updated to the connections subscribed to this exact URI.</summary>
        public event Action<string> ResourceUpdated;

        /// <summary>Adds a resource (ResourceDescriptor: uri, name, title?, description?, mimeType?), or replaces the one at its URI. read(uri) gives its contents.</summary>
        public void AddResource(JObject descriptor, Func<string, Task<JArray>> read)
        {
            if (read == null) throw new ArgumentNullException(nameof(read));
            var copy = Checked(descriptor, "Resource", "uri", "name");
            Change("resources", () => _resources = _resources.With(new ResourceEntry { Descriptor = copy, Read = read }), () => _resources);
        }

        /// <summary>
        /// Adds a resource template (uriTemplate, name, …), or replaces the one with its
        /// uriTemplate. read(uri, variables) gives the contents of a URI it matches;
        /// complete(variable, typed) the completions for a variable.
        /// </summary>
        public void AddTemplate(JObject descriptor, Func<string, IReadOnlyDictionary<string, string>, Task<JArray>> read, Func<string, string, IEnumerable<string>> complete = null)
        {
            if (read == null) throw new ArgumentNullException(nameof(read));
            var copy = Checked(descriptor, "Resource template", "uriTemplate", "name");
            var entry = new TemplateEntry { Descriptor = copy, Template = new UriTemplate((string)copy["uriTemplate"]), Read = read, Complete = complete };
            Change("resources", () => _templates = _templates.With(entry), () => _templates);
        }

        /// <summary>
        /// Adds a prompt (name, title?, description?, arguments?: [{ name, description?, required? }]),
        /// or replaces the one of its name. get(arguments) gives { description?, messages };
        /// complete(argument, typed, otherArguments) the completions for an argument.
        /// </summary>
        public void AddPrompt(JObject descriptor, Func<JObject, Task<JObject>> get, Func<string, string, JObject, IEnumerable<string>> complete = null)
        {
            if (get == null) throw new ArgumentNullException(nameof(get));
            var copy = Checked(descriptor, "Prompt", "name", "name");
            if (copy["arguments"] != null && !(copy["arguments"] is JArray arguments && arguments.All(a => a is JObject o && o["name"]?.Type == JTokenType.String)))
            {
                throw Refused("Prompt", (string)copy["name"], "its \"arguments\" must be an array of { name, description?, required? }");
            }
            Change("prompts", () => _prompts = _prompts.With(new PromptEntry { Descriptor = copy, Get = get, Complete = complete }), () => _prompts);
        }

        public bool RemoveResource(string uri) => Remove("resources", () => _resources, set => _resources = set, uri);

        public bool RemoveTemplate(string uriTemplate) => Remove("resources", () => _templates, set => _templates = set, uriTemplate);

        public bool RemovePrompt(string name) => Remove("prompts", () => _prompts, set => _prompts = set, name);

        public JArray ListResources() => _resources.Descriptors();

        public JArray ListTemplates() => _templates.Descriptors();

        public JArray ListPrompts() => _prompts.Descriptors();

        /// <summary>Tells the host a resource changed (ResourceUpdated), from any thread.</summary>
        public void NotifyResourceUpdated(string uri)
        {
            if (uri != null) ResourceUpdated?.Invoke(uri);
        }

        /// <summary>The contents at a URI: a fixed resource with exactly that URI first, then the first template that matches. NOT_FOUND (data.uri) otherwise.</summary>
        public async Task<JArray> Read(string uri)
        {
            var fixedResource = _resources.Find(uri);
            if (fixedResource != null) return await fixedResource.Read(uri) ?? new JArray();
            foreach (var template in _templates.Entries)
            {
                var variables = template.Template.Match(uri);
                if (variables != null) return await template.Read(uri, variables) ?? new JArray();
            }
            var shown = ToolSuggestions.Clip(uri ?? "");
            throw new TetherException(ErrorCodes.NotFound, "No resource at \"" + shown + "\". resources/list and resources/templates/list show what exists.", new JObject { ["uri"] = shown });
        }

        /// <summary>A prompt's messages. NOT_FOUND (data.prompt) for an unknown name; INVALID_PARAMS (data: prompt, field) when a required argument is missing.</summary>
        public async Task<JObject> GetPrompt(string name, JObject arguments)
        {
            var prompt = _prompts.Find(name);
            if (prompt == null)
            {
                var shown = ToolSuggestions.Clip(name ?? "");
                throw new TetherException(ErrorCodes.NotFound, "No prompt named \"" + shown + "\". prompts/list shows every prompt.", new JObject { ["prompt"] = shown });
            }
            var given = arguments ?? new JObject();
            foreach (var argument in (prompt.Descriptor["arguments"] as JArray ?? new JArray()).OfType<JObject>())
            {
                var argumentName = (string)argument["name"];
                if (argument["required"]?.Type == JTokenType.Boolean && (bool)argument["required"] && !given.ContainsKey(argumentName))
                {
                    throw new TetherException(ErrorCodes.InvalidParams, "Prompt \"" + name + "\" needs the argument \"" + argumentName + "\".", new JObject { ["prompt"] = name, ["field"] = argumentName });
                }
            }
            return await prompt.Get((JObject)given.DeepClone()) ?? new JObject { ["messages"] = new JArray() };
        }

        /// <summary>completion/complete: { completion: { values (at most 100), total, hasMore } }. NOT_FOUND (data.prompt or data.uri) for an unknown prompt or template.</summary>
        public Task<JObject> Complete(JObject parameters)
        {
            try
            {
                return Task.FromResult(CatalogCompletion.Complete(parameters, _prompts, _templates, MaxCompletions, MaxCounted));
            }
            catch (Exception error)
            {
                return Task.FromException<JObject>(error);
            }
        }

        private void Change<T>(string kind, Action change, Func<EntrySet<T>> current) where T : class
        {
            bool changed;
            lock (_writing)
            {
                var before = current();
                change();
                changed = !before.SameAs(current());
            }
            if (changed) Changed?.Invoke(kind);
        }

        private bool Remove<T>(string kind, Func<EntrySet<T>> current, Action<EntrySet<T>> set, string key) where T : class
        {
            bool removed;
            lock (_writing)
            {
                var before = current();
                removed = before.Find(key) != null;
                if (removed) set(before.Without(key));
            }
            if (removed) Changed?.Invoke(kind);
            return removed;
        }

        private static JObject Checked(JObject descriptor, string what, string keyField, string nameField)
        {
            if (descriptor == null) throw new ArgumentNullException(nameof(descriptor));
            var key = descriptor[keyField];
            if (key?.Type != JTokenType.String || ((string)key).Length == 0) throw Refused(what, descriptor[keyField]?.ToString() ?? "", "its descriptor has no \"" + keyField + "\" string");
            if (descriptor[nameField]?.Type != JTokenType.String) throw Refused(what, (string)key, "its descriptor has no \"" + nameField + "\" string");
            return (JObject)descriptor.DeepClone();
        }

        private static TetherException Refused(string what, string key, string problem) =>
            new TetherException(ErrorCodes.InternalError, what + " \"" + ToolSuggestions.Clip(key) + "\" cannot be added: " + problem + ".", new JObject { ["key"] = key });
    }
}
