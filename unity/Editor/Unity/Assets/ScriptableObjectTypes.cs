using System;
using System.Collections.Generic;
using System.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// The ScriptableObject classes an asset can be made of (in Unity: TypeCache's, less the
    /// abstract and generic ones and the editor's own windows and inspectors), found by short or
    /// full name, with "did you mean" for a wrong one, as the sandbox says it
    /// (src/sandbox/tools/scriptable-object-tools.ts).
    /// </summary>
    internal sealed class ScriptableObjectTypes
    {
        private readonly List<Type> _types;
        private readonly ComponentTypeResolver _byName;

        public ScriptableObjectTypes(IEnumerable<Type> scriptableObjectTypes)
        {
            _types = (scriptableObjectTypes ?? Enumerable.Empty<Type>())
                .Where(type => type != null && !type.IsAbstract && !type.IsGenericTypeDefinition
                    && !(type.Namespace ?? "").StartsWith("UnityEditor", StringComparison.Ordinal))
                .ToList();
            // Finding a type by short or full name is the same for any kind of type.
            _byName = new ComponentTypeResolver(_types);
        }

        public Type Require(string name, string tool)
        {
            var found = _byName.Find(name);
            if (found != null) return found;
            return Unknown(name, tool);
        }

        private Type Unknown(string name, string tool) =>
            throw NamedChoices.Unknown(
                tool, "type", name, "no ScriptableObject class named \"" + name + "\"",
                _types.Select(type => type.Name).Distinct().ToList(),
                "The project's ScriptableObject classes:",
                " The project declares none: write a class deriving from ScriptableObject first.");
    }
}
