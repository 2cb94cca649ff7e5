using System;
using System.Collections.Generic;
using System.Linq;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Adds and removes components with Undo for every tool that does (create_gameobject,
    /// modify_gameobject, add_component, remove_component), and fails the call when Unity
    /// refuses: Undo.AddComponent returns null (and logs why), Undo.DestroyObjectImmediate leaves
    /// a component another one needs. The call's Undo group is then reverted, so the call leaves
    /// nothing half-done. The errors are ComponentRefusals', from ComponentRules' facts.
    /// </summary>
    internal static class ComponentEdits
    {
        /// <summary>The component of <paramref name="type"/> added to <paramref name="gameObject"/>; INVALID_ARGUMENTS (about <paramref name="field"/>) when Unity refuses.</summary>
        public static Component Add(UndoGroup undo, GameObject gameObject, Type type, string tool, string field)
        {
            // Every GameObject has its one Transform already: Unity is not asked.
            var added = type == typeof(Transform) ? null : Undo.AddComponent(gameObject, type);
            if (added != null) return added;
            var onlyOne = ComponentRules.OnlyOneOf(type);
            var hasOne = gameObject.GetComponents(onlyOne ?? type).Length > 0;
            throw undo.Revert(ComponentRefusals.AddRefused(tool, field, SceneGraph.PathOf(gameObject), type.Name, onlyOne?.Name, hasOne));
        }

        /// <summary>Removes <paramref name="component"/>; INVALID_ARGUMENTS (about <paramref name="field"/>) when Unity keeps it.</summary>
        public static void Remove(UndoGroup undo, Component component, string tool, string field)
        {
            var gameObject = component.gameObject;
            var type = component.GetType();
            Undo.DestroyObjectImmediate(component);
            // Unity's == is true for a destroyed component.
            if (component == null) return;
            var others = Live(gameObject).Where(other => !ReferenceEquals(other, component)).Select(other => other.GetType()).ToList();
            var dependents = ComponentRules.Dependents(type, others).Select(t => t.Name).ToList();
            throw undo.Revert(ComponentRefusals.RemoveRefused(tool, field, SceneGraph.PathOf(gameObject), type.Name, dependents));
        }

        /// <summary>Removes <paramref name="components"/> of <paramref name="gameObject"/>, each after those of them that need it.</summary>
        public static void RemoveAll(UndoGroup undo, GameObject gameObject, IReadOnlyList<Component> components, string tool, string field)
        {
            foreach (var component in ComponentRules.RemovalOrder(Live(gameObject), components, c => c.GetType()))
            {
                Remove(undo, component, tool, field);
            }
        }

        /// <summary>The GameObject's components, without missing scripts.</summary>
        private static List<Component> Live(GameObject gameObject) =>
            gameObject.GetComponents(typeof(Component)).Where(component => component != null).ToList();
    }
}
