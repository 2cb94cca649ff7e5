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
    public sealed class DuplicateGameObjectArgs
    {
        [ToolArg("The GameObject to copy, e.g. \"/Environment/Crate\".", Required = true)]
        public string Path;

        [ToolArg("The copy's name. Default: the original's, numbered so that siblings differ (\"Crate (1)\").", MinLength = 1, MaxLength = 200, Pattern = SceneEditTools.NamePattern)]
        public string Name;

        [ToolArg("Path of the copy's parent. Default: the original's parent.")]
        public string Parent;
    }

    public sealed class ReparentGameObjectArgs
    {
        [ToolArg("The GameObject to move, e.g. \"/Crate\".", Required = true)]
        public string Path;

        [ToolArg("Path of the new parent, e.g. \"/Environment\". Omit to move it to the scene root.")]
        public string Parent;
    }

    public sealed class AddComponentArgs
    {
        [ToolArg("The GameObject, e.g. \"/Player\".", Required = true)]
        public string Path;

        [ToolArg("The component type, e.g. \"Rigidbody\" or \"MyGame.Health\".", Required = true, MinLength = 1)]
        public string Type;
    }

    public sealed class RemoveComponentArgs
    {
        [ToolArg("The GameObject, e.g. \"/Player\".", Required = true)]
        public string Path;

        [ToolArg("The component type, e.g. \"Rigidbody\".", Required = true, MinLength = 1)]
        public string Type;

        [ToolArg("Which of several components of that type, from 0 in the order shown.", Minimum = 0, Maximum = 1000)]
        public int Index = 0;
    }

    /// <summary>A GameObject as the scene tools describe it (SceneGraph.Describe; the sandbox's gameObjectInfo).</summary>
    public sealed class GameObjectInfo
    {
        public int Id;

        [ToolArg(Required = true)]
        public string Name;

        [ToolArg(Required = true)]
        public string Path;

        public bool Active;

        [ToolArg(Required = true)]
        public string Tag;

        [ToolArg(Required = true)]
        public double[] Position;

        [ToolArg(Required = true)]
        public double[] Rotation;

        [ToolArg(Required = true)]
        public double[] Scale;

        [ToolArg("Its layer, from 0 to 31.")]
        public int Layer;

        [ToolArg(Required = true)]
        public List<ComponentRef> Components;

        [ToolArg("Present when it is part of a prefab instance.")]
        public PrefabStatusInfo Prefab;
    }

    /// <summary>What Prefabs.PrefabStatus says of a GameObject of a prefab instance.</summary>
    public sealed class PrefabStatusInfo
    {
        [ToolArg("The prefab asset of the instance it is part of.", Required = true)]
        public string AssetPath;

        [ToolArg("Whether it is the instance's (outermost) root.")]
        public bool InstanceRoot;

        [ToolArg("On an instance root: whether the instance overrides its prefab (apply_prefab_overrides, revert_prefab_overrides).")]
        public bool? HasOverrides;
    }

    public sealed class ComponentRef
    {
        [ToolArg(Required = true)]
        public string Type;
    }

    public sealed class DuplicateGameObjectResult
    {
        [ToolArg(Required = true)]
        public GameObjectInfo Duplicated;
    }

    public sealed class ReparentGameObjectResult
    {
        [ToolArg(Required = true)]
        public GameObjectInfo Reparented;

        [ToolArg(Required = true)]
        public string PreviousPath;
    }

    public sealed class AddedComponent
    {
        [ToolArg(Required = true)]
        public string Type;

        [ToolArg("Its position among the GameObject's components.")]
        public int Index;
    }

    public sealed class AddComponentResult
    {
        [ToolArg(Required = true)]
        public AddedComponent Added;

        [ToolArg(Required = true)]
        public GameObjectInfo GameObject;
    }

    public sealed class RemoveComponentResult
    {
        [ToolArg(Required = true)]
        public string Removed;

        [ToolArg(Required = true)]
        public GameObjectInfo GameObject;
    }

    /// <summary>
    /// GameObject tools beyond create/modify/delete: duplicate, reparent, add or remove one
    /// component by type name. Each call is one Undo group; names are checked before anything changes.
    /// In play mode each result says the edit lasts only until play mode exits (PlayModeEdits).
    /// </summary>
    public static class GameObjectTools
    {
        [TetherTool("duplicate_gameobject", Title = "Duplicate GameObject",
            Description = "Copies a GameObject with its children and components, as the last child of the same parent (or of another). The copy is named like Edit > Duplicate does (\"Crate (1)\") unless given a name. Not idempotent: each call makes one more copy.",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(DuplicateGameObjectResult))]
        public static object DuplicateGameObject(DuplicateGameObjectArgs args)
        {
            var original = SceneGraph.Require(args.Path);
            var parent = args.Parent != null ? SceneGraph.Require(args.Parent).transform : original.transform.parent;
            var siblings = parent != null ? SceneGraph.Children(parent.gameObject) : SceneGraph.Roots();
            var name = args.Name ?? SiblingNames.Unique(original.name, siblings.Select(SceneGraph.NameOf));
            using (new UndoGroup("Duplicate " + original.name))
            {
                // Instantiate under a parent keeps the original's local transform, as the sandbox does;
                // an instance root's copy is an instance of its prefab with its overrides (Prefabs.InstanceCopies).
                var report = new Prefabs.DuplicateReport();
                var copy = Prefabs.InstanceCopies.Copy(original, parent, name, report);
                if (parent == null) Prefabs.PrefabStages.PlaceInEditedScene(copy);
                Undo.RegisterCreatedObjectUndo(copy, "Duplicate " + original.name);
                var result = new JObject { ["duplicated"] = SceneGraph.Describe(copy) };
                var note = report.Note(SceneGraph.PathOf(copy));
                if (note != null) result["note"] = note;
                return PlayModeEdits.Noted(result);
            }
        }

        [TetherTool("reparent_gameobject", Title = "Reparent GameObject",
            Description = "Moves a GameObject (with its children) under another parent, or to the scene root. It keeps its local position, rotation and scale, now relative to the new parent.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(ReparentGameObjectResult))]
        public static object ReparentGameObject(ReparentGameObjectArgs args)
        {
            const string tool = "reparent_gameobject";
            var gameObject = SceneGraph.Require(args.Path);
            var previousPath = SceneGraph.PathOf(gameObject);
            var target = args.Parent != null ? SceneGraph.Require(args.Parent) : null;
            if (target != null && SceneGraph.IsWithin(target.transform, gameObject.transform))
            {
                var problem = "\"" + SceneGraph.PathOf(target) + "\" is \"" + previousPath + "\" or one of its children";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": parent: " + problem + ", and a GameObject cannot be its own ancestor. Choose a parent outside it.",
                    new JObject { ["tool"] = tool, ["field"] = "parent", ["problem"] = problem });
            }
            if (PrefabUtility.IsPartOfPrefabInstance(gameObject) && !PrefabUtility.IsOutermostPrefabInstanceRoot(gameObject))
            {
                throw HierarchyRefusals.MoveInsideInstance(tool, previousPath, SceneGraph.PathOf(PrefabUtility.GetOutermostPrefabInstanceRoot(gameObject)));
            }
            using (var undo = new UndoGroup("Reparent " + gameObject.name))
            {
                var transform = gameObject.transform;
                var position = transform.localPosition;
                var rotation = transform.localEulerAngles;
                var scale = transform.localScale;
                var newParent = target != null ? target.transform : null;
                // Like transform.parent = newParent: Unity keeps the world transform; the tool keeps the local one.
                Undo.SetTransformParent(transform, newParent, "Reparent " + gameObject.name);
                // Unity logs a move it will not make and goes on: the call must not say it moved.
                if (transform.parent != newParent) throw undo.Revert(HierarchyRefusals.ReparentRefused(tool, previousPath, target != null ? SceneGraph.PathOf(target) : null));
                Undo.RecordObject(transform, "Reparent " + gameObject.name);
                transform.localPosition = position;
                transform.localEulerAngles = rotation;
                transform.localScale = scale;
                Prefabs.InstanceEdits.Record(transform);
            }
            return PlayModeEdits.Noted(new JObject { ["reparented"] = SceneGraph.Describe(gameObject), ["previousPath"] = previousPath });
        }

        [TetherTool("add_component", Title = "Add component",
            Description = "Adds a component to a GameObject by type name (\"Rigidbody\", \"BoxCollider\", a script's class). A wrong name fails with the closest names.",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(AddComponentResult))]
        public static object AddComponent(AddComponentArgs args)
        {
            const string tool = "add_component";
            var gameObject = SceneGraph.Require(args.Path);
            var type = SceneVocabulary.Components.Require(args.Type, tool, "type");
            Component added;
            using (var undo = new UndoGroup("Add " + type.Name + " to " + gameObject.name))
            {
                added = ComponentEdits.Add(undo, gameObject, type, tool, "type");
            }
            var index = System.Array.IndexOf(gameObject.GetComponents(typeof(Component)), added);
            return PlayModeEdits.Noted(new JObject
            {
                ["added"] = new JObject { ["type"] = type.Name, ["index"] = index },
                ["gameObject"] = SceneGraph.Describe(gameObject),
            });
        }

        [TetherTool("remove_component", Title = "Remove component",
            Description = "Removes a component from a GameObject by type name (the first of that type, or the one at index among them). A GameObject keeps its Transform.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(RemoveComponentResult))]
        public static object RemoveComponent(RemoveComponentArgs args)
        {
            const string tool = "remove_component";
            var gameObject = SceneGraph.Require(args.Path);
            if (ComponentChoices.NamesTransform(args.Type))
            {
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": type: a GameObject cannot lose its Transform. Delete the GameObject instead (delete_gameobject).",
                    new JObject { ["tool"] = tool, ["field"] = "type", ["problem"] = "a GameObject cannot lose its Transform" });
            }
            var components = gameObject.GetComponents(typeof(Component)).Where(c => c != null).ToList();
            var matching = components.Where(c => c.GetType().Name == args.Type || c.GetType().FullName == args.Type).ToList();
            if (args.Index >= matching.Count)
            {
                var has = SceneGraph.ComponentNames(gameObject).ToList();
                throw ComponentChoices.NotFound(SceneGraph.PathOf(gameObject), args.Type, args.Index, matching.Count, has);
            }
            using (var undo = new UndoGroup("Remove " + args.Type + " from " + gameObject.name))
            {
                ComponentEdits.Remove(undo, matching[args.Index], tool, "type");
            }
            return PlayModeEdits.Noted(new JObject { ["removed"] = args.Type, ["gameObject"] = SceneGraph.Describe(gameObject) });
        }
    }
}
