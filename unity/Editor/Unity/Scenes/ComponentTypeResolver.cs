using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Finds a component type by the name a caller gives ("Rigidbody", "UnityEngine.Light",
    /// "MyGame.Health"), among the types it was given (in Unity: every Component type the editor
    /// knows). A short name that several namespaces share prefers UnityEngine's, as a Unity user
    /// means; an unknown name fails INVALID_ARGUMENTS with the closest names.
    /// </summary>
    internal sealed class ComponentTypeResolver
    {
        private readonly List<Type> _types;

        public ComponentTypeResolver(IEnumerable<Type> componentTypes)
        {
            _types = (componentTypes ?? Enumerable.Empty<Type>())
                .Where(type => type != null && !type.IsAbstract && !type.IsGenericTypeDefinition)
                .ToList();
        }

        /// <summary>The type named <paramref name="name"/>, or null.</summary>
        public Type Find(string name)
        {
            if (string.IsNullOrEmpty(name)) return null;
            var full = _types.FirstOrDefault(type => string.Equals(type.FullName, name, StringComparison.Ordinal));
            if (full != null) return full;
            var byName = _types.Where(type => string.Equals(type.Name, name, StringComparison.Ordinal)).ToList();
            if (byName.Count == 0) return null;
            return byName.FirstOrDefault(type => type.Namespace != null && type.Namespace.StartsWith("UnityEngine", StringComparison.Ordinal))
                ?? byName.OrderBy(type => type.FullName, StringComparer.Ordinal).First();
        }

        /// <summary>The type named <paramref name="name"/>; INVALID_ARGUMENTS (data: tool, field, problem, suggestions) when none is.</summary>
        public Type Require(string name, string tool, string field)
        {
            var found = Find(name);
            if (found != null) return found;
            var suggestions = ToolSuggestions.Closest(name, _types.Select(type => type.Name));
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            var problem = "no component type named \"" + name + "\"";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + "." + hint + " Give a Component type's name, e.g. \"Rigidbody\" or \"MyGame.Health\".",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
