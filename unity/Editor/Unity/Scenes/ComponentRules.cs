using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using UnityEngine;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// What a component type's attributes say Unity allows, read by reflection (no Unity call):
    /// [DisallowMultipleComponent] (one per GameObject, the type's or a base class's, as Unity
    /// looks it up) and [RequireComponent] (the components it needs, its own and its base
    /// classes'). Built-in types whose rules are native only are not seen here; the errors
    /// built from these facts then say that Unity refused, and that read_console says why.
    /// </summary>
    internal static class ComponentRules
    {
        /// <summary>The type a GameObject may have only one of that <paramref name="type"/> is, or null.</summary>
        public static Type OnlyOneOf(Type type)
        {
            if (type == typeof(Transform)) return type;
            // Inherited = false on the attribute: Unity walks the base classes itself.
            for (var current = type; current != null; current = current.BaseType)
            {
                if (Attribute.IsDefined(current, typeof(DisallowMultipleComponent), false)) return current;
            }
            return null;
        }

        /// <summary>The component types <paramref name="type"/> needs on its GameObject ([RequireComponent] on it and its base classes).</summary>
        public static IReadOnlyList<Type> Requires(Type type)
        {
            var required = new List<Type>();
            for (var current = type; current != null; current = current.BaseType)
            {
                // The constructor's arguments are the documented part of the attribute (its fields are not).
                foreach (var attribute in CustomAttributeData.GetCustomAttributes(current).Where(a => a.AttributeType == typeof(RequireComponent)))
                {
                    required.AddRange(attribute.ConstructorArguments.Select(argument => argument.Value as Type).Where(t => t != null));
                }
            }
            return required.Distinct().ToList();
        }

        /// <summary>
        /// Which of <paramref name="others"/> (the types of the GameObject's other components)
        /// need the component of type <paramref name="removed"/>: they require a type it is, and
        /// none of the others is one.
        /// </summary>
        public static IReadOnlyList<Type> Dependents(Type removed, IReadOnlyList<Type> others) =>
            others
                .Where(other => Requires(other).Any(required => required.IsAssignableFrom(removed) && !others.Any(o => required.IsAssignableFrom(o))))
                .Distinct()
                .ToList();

        /// <summary>
        /// <paramref name="remove"/> (some of <paramref name="all"/>, a GameObject's components) in an
        /// order Unity removes them in: each one after those among them that need it. Where the
        /// attributes tell no such order (a cycle, or native rules), the rest keep their order.
        /// </summary>
        public static List<T> RemovalOrder<T>(IReadOnlyList<T> all, IReadOnlyList<T> remove, Func<T, Type> typeOf) where T : class
        {
            var remaining = all.ToList();
            var pending = remove.ToList();
            var order = new List<T>();
            while (pending.Count > 0)
            {
                var next = pending.FindIndex(candidate => Dependents(typeOf(candidate), remaining.Where(o => !ReferenceEquals(o, candidate)).Select(typeOf).ToList()).Count == 0);
                var chosen = pending[next < 0 ? 0 : next];
                order.Add(chosen);
                pending.RemoveAt(pending.FindIndex(c => ReferenceEquals(c, chosen)));
                var index = remaining.FindIndex(c => ReferenceEquals(c, chosen));
                if (index >= 0) remaining.RemoveAt(index);
            }
            return order;
        }
    }
}
