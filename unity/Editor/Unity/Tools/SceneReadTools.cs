using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;
using Tether.Unity.Scenes;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class GetHierarchyArgs
    {
        [ToolArg("Path of the subtree to return, e.g. \"/Environment\". Default: the whole scene.")]
        public string Root;

        [ToolArg("How many levels to return.", Minimum = 1, Maximum = 64)]
        public int? Depth;
    }

    public sealed class FindGameObjectsArgs
    {
        public string Name;

        [ToolArg("A component type, e.g. \"Light\".")]
        public string Component;

        public string Tag;

        [ToolArg("A path, or a glob of paths: \"*\" and \"?\" within a name, \"**\" across names, e.g. \"/Environment/*\".")]
        public string Path;

        [ToolArg(SceneEditTools.LayerDescription)]
        public string Layer;

        [ToolArg(Minimum = 1, Maximum = 1000)]
        public int Limit = 100;
    }

    public sealed class FindGameObjectsResult
    {
        [ToolArg("How many GameObjects matched; objects holds the first limit of them.")]
        public int Count;

        [ToolArg(Required = true)]
        public List<GameObjectInfo> Objects;
    }

    /// <summary>Scene tools that read: the GameObject tree of the active scene, and searches in it.</summary>
    public static class SceneReadTools
    {
        [TetherTool("get_hierarchy", Title = "Get scene hierarchy",
            Description = "Returns the GameObject tree of the open scene: names, paths, active flags, component types, and which GameObjects are part of a prefab instance.",
            ReadOnly = true, Idempotent = true)]
        public static object GetHierarchy(GetHierarchyArgs args)
        {
            var depth = args.Depth ?? int.MaxValue;
            JArray objects;
            if (args.Root != null)
            {
                var root = SceneGraph.Require(args.Root);
                var parent = root.transform.parent;
                objects = SceneGraph.Hierarchy(new[] { root }, depth, parent == null ? "/" : SceneGraph.PathOf(parent.gameObject));
            }
            else
            {
                objects = SceneGraph.Hierarchy(SceneGraph.Roots(), depth, "/");
            }
            return new JObject { ["scene"] = SceneGraph.Scene.name, ["objects"] = objects };
        }

        [TetherTool("find_gameobjects", Title = "Find GameObjects",
            Description = "Finds GameObjects by name (substring, case-insensitive), path (a glob: \"/Environment/*\" its children, \"/Environment/**\" all below it, \"**/Lamp*\" at any depth), component type, tag or layer. Every filter given must match.",
            ReadOnly = true, Idempotent = true, Output = typeof(FindGameObjectsResult))]
        public static object FindGameObjects(FindGameObjectsArgs args)
        {
            var glob = args.Path == null ? null : new HierarchyGlob(args.Path);
            var layer = args.Layer == null ? (int?)null : LayerChoice.RequireInProject(args.Layer, "find_gameobjects");
            var matches = HierarchyPath.Walk(SceneGraph.Roots(), SceneGraph.Children)
                .Where(go =>
                    (string.IsNullOrEmpty(args.Name) || go.name.IndexOf(args.Name, StringComparison.OrdinalIgnoreCase) >= 0)
                    && (string.IsNullOrEmpty(args.Component) || HasComponent(go, args.Component))
                    && (string.IsNullOrEmpty(args.Tag) || go.tag == args.Tag)
                    && (glob == null || glob.Matches(SceneGraph.PathOf(go)))
                    && (layer == null || go.layer == layer))
                .ToList();
            return new JObject
            {
                ["count"] = matches.Count,
                ["objects"] = new JArray(matches.Take(args.Limit).Select(SceneGraph.Describe)),
            };
        }

        /// <summary>A component of that type name (short or full), as the sandbox matches component types.</summary>
        private static bool HasComponent(GameObject gameObject, string typeName) =>
            gameObject.GetComponents(typeof(Component)).Any(component =>
                component != null && (component.GetType().Name == typeName || component.GetType().FullName == typeName));
    }
}
