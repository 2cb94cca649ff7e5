using System;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;
using Tether.Core.Protocol;

namespace Tether.Core.Host
{
    /// <summary>Every method of protocol.md §7 an authenticated connection is served, with its params checked.</summary>
    internal sealed partial class HostConnection
    {
        private void RegisterMethods()
        {
            var catalog = _core.Catalog;
            Rpc.OnOtherRequest(null)
                .OnOtherNotification(null)
                .OnRequest(Methods.Ping, (p, c) => Done(new JObject()))
                // On the loop, from what it holds: answerable while the main thread is blocked.
                .OnRequest(Methods.HostStatus, (p, c) => Done(_core.HostStatus()))
                // From the registry's cache, on the loop: answerable while the main thread is blocked.
                .OnRequest(Methods.ToolsList, (p, c) => Done(new JObject { ["tools"] = _core.Tools.Descriptors() }))
                .OnRequest(Methods.CallStart, (p, c) => Widen(Engine().Start(CallStartParamsOf(p), this, c.Abandoned)))
                .OnRequest(Methods.CallStatus, (p, c) => Done(Engine().Status(CallIdOf(Methods.CallStatus, p))))
                .OnRequest(Methods.CallCancel, (p, c) =>
                {
                    var reader = new ParamsReader(Methods.CallCancel, p);
                    var callId = reader.String("callId", true, 1, 200);
                    var reason = reader.String("reason", false);
                    reader.ThrowIfInvalid();
                    return Done(Engine().Cancel(callId, reason));
                })
                .OnRequest(Methods.ResourcesList, (p, c) => Done(new JObject { ["resources"] = catalog.ListResources() }))
                .OnRequest(Methods.ResourceTemplatesList, (p, c) => Done(new JObject { ["resourceTemplates"] = catalog.ListTemplates() }))
                .OnRequest(Methods.ResourcesRead, async (p, c) => new JObject { ["contents"] = await catalog.Read(UriOf(Methods.ResourcesRead, p)) })
                .OnRequest(Methods.ResourcesSubscribe, (p, c) =>
                {
                    var uri = UriOf(Methods.ResourcesSubscribe, p);
                    if (!Subscriptions.Contains(uri) && Subscriptions.Count >= MaxSubscriptions)
                    {
                        throw new TetherException(
                            ErrorCodes.InvalidParams,
                            $"This connection already follows {MaxSubscriptions} resources, the most one may; unsubscribe from some first.",
                            new JObject { ["field"] = "uri", ["limit"] = MaxSubscriptions });
                    }
                    Subscriptions.Add(uri);
                    return Done(new JObject());
                })
                .OnRequest(Methods.ResourcesUnsubscribe, (p, c) =>
                {
                    Subscriptions.Remove(UriOf(Methods.ResourcesUnsubscribe, p));
                    return Done(new JObject());
                })
                .OnRequest(Methods.PromptsList, (p, c) => Done(new JObject { ["prompts"] = catalog.ListPrompts() }))
                .OnRequest(Methods.PromptsGet, (p, c) =>
                {
                    var reader = new ParamsReader(Methods.PromptsGet, p);
                    var name = reader.String("name", true);
                    var arguments = reader.Record("arguments", false, stringValues: true);
                    reader.ThrowIfInvalid();
                    return Widen(catalog.GetPrompt(name, arguments ?? new JObject()));
                })
                .OnRequest(Methods.Complete, (p, c) => Widen(catalog.Complete(CompleteParamsOf(p))));
        }

        private CallEngine Engine() =>
            _core.Engine ?? throw new TetherException(ErrorCodes.InternalError, "The host has not restored its journal yet; try again in a moment.");

        private static Task<JToken> Done(JToken result) => Task.FromResult(result);

        private static async Task<JToken> Widen<T>(Task<T> task) where T : JToken => await task;

        /// <summary>calls/start params (protocol.md §7.4): callId 1–200 characters, tool non-empty, arguments an object, deadlineMs a positive integer, attachOnly a boolean.</summary>
        private static CallStartParams CallStartParamsOf(JToken raw)
        {
            var reader = new ParamsReader(Methods.CallStart, raw);
            var parsed = new CallStartParams
            {
                CallId = reader.String("callId", true, 1, 200),
                Tool = reader.String("tool", true, 1),
            };
            var arguments = reader.Record("arguments", false, stringValues: false);
            parsed.DeadlineMs = reader.Integer("deadlineMs", false, 1);
            parsed.AttachOnly = reader.Boolean("attachOnly", false) ?? false;
            if (reader.Object("agent", false) != null)
            {
                // Only its name and version are kept, whatever else the client sent.
                var name = reader.String("agent.name", true, 1, 200);
                var version = reader.String("agent.version", false, 0, 200);
                parsed.Agent = new JObject { ["name"] = name };
                if (version != null) parsed.Agent["version"] = version;
            }
            reader.ThrowIfInvalid();
            // The engine journals the arguments; a copy keeps them apart from the request's JSON.
            parsed.Arguments = arguments != null ? (JObject)arguments.DeepClone() : new JObject();
            return parsed;
        }

        private static string CallIdOf(string method, JToken raw)
        {
            var reader = new ParamsReader(method, raw);
            var callId = reader.String("callId", true, 1, 200);
            reader.ThrowIfInvalid();
            return callId;
        }

        private static string UriOf(string method, JToken raw)
        {
            var reader = new ParamsReader(method, raw);
            var uri = reader.String("uri", true);
            reader.ThrowIfInvalid();
            return uri;
        }

        /// <summary>completion/complete params (protocol.md §7.13), rebuilt from what was checked (unknown fields dropped, as the schema does).</summary>
        private static JObject CompleteParamsOf(JToken raw)
        {
            var reader = new ParamsReader(Methods.Complete, raw);
            var reference = new JObject();
            if (reader.Object("ref", true) != null)
            {
                var type = reader.String("ref.type", true);
                if (type == "ref/prompt") reference = new JObject { ["type"] = type, ["name"] = reader.String("ref.name", true) };
                else if (type == "ref/resource") reference = new JObject { ["type"] = type, ["uri"] = reader.String("ref.uri", true) };
                else if (type != null) reader.Issue("ref.type", "Invalid input: expected \"ref/prompt\" or \"ref/resource\"");
            }
            var argument = new JObject();
            if (reader.Object("argument", true) != null)
            {
                argument["name"] = reader.String("argument.name", true);
                argument["value"] = reader.String("argument.value", true);
            }
            JObject context = null;
            if (reader.Object("context", false) != null)
            {
                context = new JObject();
                var arguments = reader.Record("context.arguments", false, stringValues: true);
                if (arguments != null) context["arguments"] = arguments.DeepClone();
            }
            reader.ThrowIfInvalid();
            var parameters = new JObject { ["ref"] = reference, ["argument"] = argument };
            if (context != null) parameters["context"] = context;
            return parameters;
        }
    }
}
