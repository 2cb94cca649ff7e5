using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Core.Kit
{
    /// <summary>
    /// The resources, resource template and prompts the official MCP conformance suite expects
    /// (port of src/sandbox/conformance-catalog.ts). Every URI is under test:// and every
    /// prompt name starts with test_, so they can never shadow the editor's own.
    /// </summary>
    public static partial class ConformanceFixtures
    {
        /// <summary>A 1x1 red PNG (tools-call-image, resources-read-binary, prompts-get-with-image, …).</summary>
        public const string TestPngBase64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4AWP4z8DwHwAFAAH/e+m+7wAAAABJRU5ErkJggg==";

        /// <summary>A WAV file holding one silent 16-bit sample at 8 kHz (tools-call-audio).</summary>
        public const string TestWavBase64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQIAAAAAAA==";

        public const string StaticTextUri = "test://static-text";
        public const string StaticBinaryUri = "test://static-binary";
        public const string WatchedUri = "test://watched-resource";
        public const string DataTemplate = "test://template/{id}/data";

        /// <summary>Completion candidates for the prompt arguments and the template variable.</summary>
        private static readonly Dictionary<string, string[]> Suggestions = new Dictionary<string, string[]>
        {
            ["arg1"] = new[] { "paris", "park", "party", "test", "testValue1" },
            ["arg2"] = new[] { "world", "testValue2" },
            ["resourceUri"] = new[] { StaticTextUri, StaticBinaryUri, WatchedUri },
            ["id"] = new[] { "1", "42", "123" },
        };

        /// <summary>Bumped by test_update_watched_resource; like the sandbox's main-thread state, it lasts until a domain reload.</summary>
        private static int _watchedVersion;

        /// <summary>The catalogs AddTo was given: test_update_watched_resource tells their subscribers.</summary>
        private static readonly List<WeakReference<Catalog>> Catalogs = new List<WeakReference<Catalog>>();

        /// <summary>Adds the fixtures' resources, template and prompts to a catalog.</summary>
        public static void AddTo(Catalog catalog)
        {
            if (catalog == null) throw new ArgumentNullException(nameof(catalog));
            lock (Catalogs)
            {
                Catalogs.RemoveAll(reference => !reference.TryGetTarget(out _));
                if (!Catalogs.Any(reference => reference.TryGetTarget(out var known) && known == catalog)) Catalogs.Add(new WeakReference<Catalog>(catalog));
            }
            catalog.AddResource(
                Resource(StaticTextUri, "static-text", "Static text resource", "Conformance fixture: a fixed text resource.", "text/plain"),
                uri => Contents(new JObject { ["uri"] = uri, ["mimeType"] = "text/plain", ["text"] = "This is the content of the static text resource." }));
            catalog.AddResource(
                Resource(StaticBinaryUri, "static-binary", "Static binary resource", "Conformance fixture: a fixed binary resource (a 1x1 PNG).", "image/png"),
                uri => Contents(new JObject { ["uri"] = uri, ["mimeType"] = "image/png", ["blob"] = TestPngBase64 }));
            catalog.AddResource(
                Resource(WatchedUri, "watched-resource", "Watched resource",
                    "Conformance fixture: a resource to subscribe to; test_update_watched_resource changes it and notifies subscribers.", "text/plain"),
                uri => Contents(new JObject { ["uri"] = uri, ["mimeType"] = "text/plain", ["text"] = "Watched resource content, version " + Volatile.Read(ref _watchedVersion) + "." }));

            var template = new JObject
            {
                ["uriTemplate"] = DataTemplate,
                ["name"] = "template-data",
                ["title"] = "Template data",
                ["description"] = "Conformance fixture: data for one id.",
                ["mimeType"] = "application/json",
            };
            catalog.AddTemplate(
                template,
                (uri, variables) =>
                {
                    var id = variables["id"];
                    var data = new JObject { ["id"] = id, ["templateTest"] = true, ["data"] = "Data for ID: " + id };
                    return Contents(new JObject { ["uri"] = uri, ["mimeType"] = "application/json", ["text"] = ToolJson.Compact(data) });
                },
                (variable, typed) => variable == "id" ? Complete(variable, typed) : Enumerable.Empty<string>());

            AddPrompt(catalog, "test_simple_prompt", "Simple prompt", "Conformance fixture: a prompt without arguments.", null,
                args => Prompt("A simple prompt", Text("This is a simple prompt for testing.")));
            AddPrompt(catalog, "test_prompt_with_arguments", "Prompt with arguments", "Conformance fixture: a prompt with two required arguments.",
                new JArray(Argument("arg1", "First test argument"), Argument("arg2", "Second test argument")),
                args => Prompt("A prompt with arguments", Text("Prompt with arguments: arg1='" + Given(args, "arg1") + "', arg2='" + Given(args, "arg2") + "'")));
            AddPrompt(catalog, "test_prompt_with_embedded_resource", "Prompt with embedded resource", "Conformance fixture: a prompt that embeds a resource.",
                new JArray(Argument("resourceUri", "URI of the resource to embed")),
                args => Prompt(
                    "A prompt with an embedded resource",
                    ToolContent.Resource(Given(args, "resourceUri"), "text/plain", "Embedded resource content for testing."),
                    Text("Please process the embedded resource above.")));
            AddPrompt(catalog, "test_prompt_with_image", "Prompt with image", "Conformance fixture: a prompt with image content.", null,
                args => Prompt("A prompt with an image", ToolContent.Image(TestPngBase64, "image/png"), Text("Please analyze the image above.")));
        }

        /// <summary>Tells the catalogs' subscribers that the watched resource changed, after bumping its version.</summary>
        private static int UpdateWatched()
        {
            var version = Interlocked.Increment(ref _watchedVersion);
            List<Catalog> targets;
            lock (Catalogs)
            {
                targets = Catalogs.Select(reference => reference.TryGetTarget(out var catalog) ? catalog : null).Where(c => c != null).ToList();
            }
            foreach (var catalog in targets) catalog.NotifyResourceUpdated(WatchedUri);
            return version;
        }

        private static void AddPrompt(Catalog catalog, string name, string title, string description, JArray arguments, Func<JObject, JObject> get)
        {
            var descriptor = new JObject { ["name"] = name, ["title"] = title, ["description"] = description };
            if (arguments != null) descriptor["arguments"] = arguments;
            var names = arguments?.Select(a => (string)a["name"]).ToList() ?? new List<string>();
            catalog.AddPrompt(
                descriptor,
                args => Task.FromResult(get(args)),
                (argument, typed, context) => names.Contains(argument) ? Complete(argument, typed) : Enumerable.Empty<string>());
        }

        /// <summary>The candidates for an argument that start with what was typed, ignoring case.</summary>
        private static IEnumerable<string> Complete(string argument, string typed)
        {
            var prefix = (typed ?? "").ToLowerInvariant();
            return Suggestions.TryGetValue(argument, out var all)
                ? all.Where(s => s.ToLowerInvariant().StartsWith(prefix, StringComparison.Ordinal)).ToList()
                : new List<string>();
        }

        private static JObject Resource(string uri, string name, string title, string description, string mimeType) =>
            new JObject { ["uri"] = uri, ["name"] = name, ["title"] = title, ["description"] = description, ["mimeType"] = mimeType };

        private static JObject Argument(string name, string description) => new JObject { ["name"] = name, ["description"] = description, ["required"] = true };

        private static Task<JArray> Contents(JObject item) => Task.FromResult(new JArray(item));

        private static JObject Text(string text) => ToolContent.Text(text);

        /// <summary>String(args[name]), as the sandbox writes it (the required check ran before).</summary>
        private static string Given(JObject args, string name) =>
            args[name] == null ? "undefined" : args[name].Type == JTokenType.String ? (string)args[name] : ToolJson.Compact(args[name]);

        private static JObject Prompt(string description, params JObject[] contents) =>
            new JObject
            {
                ["description"] = description,
                ["messages"] = new JArray(contents.Select(content => new JObject { ["role"] = "user", ["content"] = content })),
            };
    }
}
