using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class CreateGameObjectArgs
    {
        [ToolArg(SceneEditTools.NameDescription, Required = true, MinLength = 1, MaxLength = 200, Pattern = SceneEditTools.NamePattern)]
        public string Name;

        [ToolArg("Path of the parent, e.g. \"/Environment\".")]
        public string Parent;

        [ToolArg(Enum = new[] { "Cube", "Sphere", "Capsule", "Cylinder", "Plane", "Quad" })]
        public string Primitive;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Position;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Rotation;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Scale;

        [ToolArg("Component types to add, e.g. [\"Rigidbody\"].")]
        public List<string> Components = new List<string>();

        public string Tag;

        [ToolArg(SceneEditTools.LayerDescription)]
        public string Layer;
    }

    public sealed class ModifyGameObjectArgs
    {
        [ToolArg(Required = true)]
        public string Path;

        [ToolArg(SceneEditTools.NameDescription, MinLength = 1, MaxLength = 200, Pattern = SceneEditTools.NamePattern)]
        public string Name;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Position;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Rotation;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Scale;

        public bool? Active;

        public string Tag;

        [ToolArg(SceneEditTools.LayerDescription)]
        public string Layer;

        public List<string> AddComponents = new List<string>();

        public List<string> RemoveComponents = new List<string>();
    }

    public sealed class DeleteGameObjectArgs
    {
        [ToolArg(Required = true)]
        public string Path;
    }

    /// <summary>
    /// Scene tools that edit, each call one Undo step. Every name a call uses (parent, component
    /// types, tag) is checked before anything changes, so a refused call leaves the scene as it was;
    /// a component Unity refuses to add or remove fails the call and reverts its Undo group
    /// (ComponentEdits), so that too leaves the scene as it was. In play mode each result says the
    /// edit lasts only until play mode exits (PlayModeEdits).
    /// </summary>
    public static class SceneEditTools
    {
        internal const string NameDescription = "A name without \"/\" (paths are names joined by \"/\").";

        /// <summary>"/" separates the names in a path: a name holding one would make its path point elsewhere.</summary>
        internal const string NamePattern = "^[^/]*$";

        internal const string LayerDescription = "A layer's name, e.g. \"Water\", or its index from 0 to 31, e.g. \"4\".";

        [TetherTool("create_gameobject", Title = "Create GameObject",
            Description = "Creates a GameObject (optionally a primitive) under a parent, with a transform and components. Not idempotent: each call creates one more object.",
            ReadOnly = false, Destructive = false, Idempotent = false)]
        public static object CreateGameObject(CreateGameObjectArgs args)
        {
            const string tool = "create_gameobject";
            var parent = args.Parent != null ? SceneGraph.Require(args.Parent) : null;
            var types = (args.Components ?? new List<string>()).Select(name => SceneVocabulary.Components.Require(name, tool, "components")).ToList();
            if (args.Tag != null) SceneVocabulary.RequireTag(args.Tag, tool);
            var layer = args.Layer == null ? (int?)null : LayerChoice.RequireInProject(args.Layer, tool);
            using (var undo = new UndoGroup("Create " + args.Name))
            {
                var gameObject = args.Primitive != null
                    ? GameObject.CreatePrimitive((PrimitiveType)Enum.Parse(typeof(PrimitiveType), args.Primitive))
                    : new GameObject(args.Name);
                gameObject.name = args.Name;
                if (parent != null) gameObject.transform.SetParent(parent.transform, false);
                else Prefabs.PrefabStages.PlaceInEditedScene(gameObject);
                ApplyTransform(gameObject.transform, args.Position, args.Rotation, args.Scale);
                if (args.Tag != null) gameObject.tag = args.Tag;
                if (layer != null) gameObject.layer = layer.Value;
                Undo.RegisterCreatedObjectUndo(gameObject, "Create " + args.Name);
                foreach (var type in types)
                {
                    // A primitive already has its MeshFilter and renderer; Unity refuses a second of many types.
                    if (gameObject.GetComponents(type).Length == 0) ComponentEdits.Add(undo, gameObject, type, tool, "components");
                }
                return PlayModeEdits.Noted(new JObject { ["created"] = SceneGraph.Describe(gameObject) });
            }
        }

        [TetherTool("modify_gameobject", Title = "Modify GameObject",
            Description = "Sets the name, transform, tag, layer, active flag or components of a GameObject found by path.",
            ReadOnly = false, Destructive = false, Idempotent = true)]
        public static object ModifyGameObject(ModifyGameObjectArgs args)
        {
            const string tool = "modify_gameobject";
            var gameObject = SceneGraph.Require(args.Path);
            var removals = args.RemoveComponents ?? new List<string>();
            if (removals.Contains("Transform"))
            {
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "A GameObject cannot lose its Transform. Remove other components only.",
                    new JObject { ["tool"] = tool, ["field"] = "removeComponents" });
            }
            var additions = (args.AddComponents ?? new List<string>()).Select(name => SceneVocabulary.Components.Require(name, tool, "addComponents")).ToList();
            if (args.Tag != null) SceneVocabulary.RequireTag(args.Tag, tool);
            var layer = args.Layer == null ? (int?)null : LayerChoice.RequireInProject(args.Layer, tool);
            using (var undo = new UndoGroup("Modify " + gameObject.name))
            {
                if (args.Name != null || args.Active != null || args.Tag != null || layer != null)
                {
                    Undo.RecordObject(gameObject, "Modify " + gameObject.name);
                    if (args.Name != null) gameObject.name = args.Name;
                    if (args.Tag != null) gameObject.tag = args.Tag;
                    if (layer != null) gameObject.layer = layer.Value;
                    if (args.Active != null) gameObject.SetActive(args.Active.Value);
                    Prefabs.InstanceEdits.Record(gameObject);
                }
                if (args.Position != null || args.Rotation != null || args.Scale != null)
                {
                    Undo.RecordObject(gameObject.transform, "Move " + gameObject.name);
                    ApplyTransform(gameObject.transform, args.Position, args.Rotation, args.Scale);
                    Prefabs.InstanceEdits.Record(gameObject.transform);
                }
                foreach (var type in additions)
                {
                    if (gameObject.GetComponents(type).Length == 0) ComponentEdits.Add(undo, gameObject, type, tool, "addComponents");
                }
                var removed = gameObject.GetComponents(typeof(Component))
                    .Where(component => component != null && !(component is Transform))
                    .Where(component => removals.Contains(component.GetType().Name) || removals.Contains(component.GetType().FullName))
                    .ToList();
                ComponentEdits.RemoveAll(undo, gameObject, removed, tool, "removeComponents");
                return PlayModeEdits.Noted(new JObject { ["modified"] = SceneGraph.Describe(gameObject) });
            }
        }

        [TetherTool("delete_gameobject", Title = "Delete GameObject",
            Description = "Deletes a GameObject and all its children. Siblings may share a name, as in Unity: the first one at the path is deleted.",
            // Not idempotent: with two siblings of one name, a second call deletes the second one. So
            // Tether never sends it again on its own after a dropped connection.
            ReadOnly = false, Destructive = true, Idempotent = false)]
        public static object DeleteGameObject(DeleteGameObjectArgs args)
        {
            var gameObject = SceneGraph.Require(args.Path);
            var removed = HierarchyPath.CountSubtree(gameObject, SceneGraph.Children);
            using (var undo = new UndoGroup("Delete " + gameObject.name))
            {
                Undo.DestroyObjectImmediate(gameObject);
                // Unity's == says whether it was destroyed: a child of a prefab instance is not, before 2022.2.
                if (gameObject != null) throw undo.Revert(HierarchyRefusals.DeleteRefused("delete_gameobject", args.Path));
            }
            return PlayModeEdits.Noted(new JObject { ["deleted"] = args.Path, ["objectsRemoved"] = removed });
        }

        private static void ApplyTransform(Transform transform, double[] position, double[] rotation, double[] scale)
        {
            if (position != null) transform.localPosition = ToVector(position);
            if (rotation != null) transform.localEulerAngles = ToVector(rotation);
            if (scale != null) transform.localScale = ToVector(scale);
        }

        private static Vector3 ToVector(double[] values)
        {
            var (x, y, z) = Vectors.FromArgs(values);
            return new Vector3(x, y, z);
        }
    }
}
