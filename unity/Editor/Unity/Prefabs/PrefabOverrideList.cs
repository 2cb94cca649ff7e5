using System.Collections.Generic;
using System.Linq;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Prefabs
{
    /// <summary>An object or component of an instance with property overrides: its GameObject's path, and "GameObject", "Transform" or the component's type.</summary>
    public sealed class PropertyOverrideRef
    {
        [Tether.Core.Tools.ToolArg(Required = true)]
        public string Path;

        [Tether.Core.Tools.ToolArg("\"GameObject\", \"Transform\" or the component type.", Required = true)]
        public string Target;
    }

    public sealed class ComponentAtPath
    {
        [Tether.Core.Tools.ToolArg(Required = true)]
        public string Path;

        [Tether.Core.Tools.ToolArg(Required = true)]
        public string Type;
    }

    /// <summary>An instance's overrides by path, as apply_prefab_overrides and revert_prefab_overrides report them (the sandbox's OverridesSummary).</summary>
    public sealed class OverridesSummary
    {
        [Tether.Core.Tools.ToolArg(Required = true)]
        public List<PropertyOverrideRef> PropertyOverrides = new List<PropertyOverrideRef>();

        [Tether.Core.Tools.ToolArg(Required = true)]
        public List<ComponentAtPath> AddedComponents = new List<ComponentAtPath>();

        [Tether.Core.Tools.ToolArg(Required = true)]
        public List<ComponentAtPath> RemovedComponents = new List<ComponentAtPath>();

        [Tether.Core.Tools.ToolArg(Required = true)]
        public List<string> AddedGameObjects = new List<string>();

        /// <summary>Always empty in Unity 2021.3, which cannot remove a GameObject from an instance (2022.1 can).</summary>
        [Tether.Core.Tools.ToolArg(Required = true)]
        public List<string> RemovedGameObjects = new List<string>();

        /// <summary>Adds a property override, once per object and target (Unity lists each overridden Object once; the sandbox each field).</summary>
        public void AddPropertyOverride(string path, string target)
        {
            if (PropertyOverrides.Any(p => p.Path == path && p.Target == target)) return;
            PropertyOverrides.Add(new PropertyOverrideRef { Path = path, Target = target });
        }
    }

    /// <summary>Reads an instance's overrides from PrefabUtility (default overrides left out, as Apply All and Revert All leave them).</summary>
    internal static class PrefabOverrideList
    {
        public static OverridesSummary Of(GameObject instanceRoot)
        {
            var summary = new OverridesSummary();
            foreach (var change in PrefabUtility.GetObjectOverrides(instanceRoot, false))
            {
                var changed = change.instanceObject;
                if (changed is GameObject gameObject) summary.AddPropertyOverride(SceneGraph.PathOf(gameObject), "GameObject");
                else if (changed is Component component) summary.AddPropertyOverride(SceneGraph.PathOf(component.gameObject), TargetOf(component));
            }
            summary.AddedComponents = PrefabUtility.GetAddedComponents(instanceRoot)
                .Select(a => new ComponentAtPath { Path = SceneGraph.PathOf(a.instanceComponent.gameObject), Type = a.instanceComponent.GetType().Name })
                .ToList();
            summary.RemovedComponents = PrefabUtility.GetRemovedComponents(instanceRoot)
                .Select(r => new ComponentAtPath { Path = SceneGraph.PathOf(r.containingInstanceGameObject), Type = r.assetComponent.GetType().Name })
                .ToList();
            summary.AddedGameObjects = PrefabUtility.GetAddedGameObjects(instanceRoot).Select(a => SceneGraph.PathOf(a.instanceGameObject)).ToList();
            return summary;
        }

        /// <summary>"Transform" for the Transform (a RectTransform too, as the sandbox names its position, rotation and scale), else the component's type name.</summary>
        public static string TargetOf(Component component) => component is Transform ? "Transform" : component.GetType().Name;
    }
}
