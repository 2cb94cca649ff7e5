using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Prefabs;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Tools
{
    public sealed class CreatePrefabArgs
    {
        [ToolArg("The GameObject, e.g. \"/Enemy\".", Required = true)]
        public string Path;

        [ToolArg("Where to save the prefab, e.g. \"Assets/Prefabs/Enemy.prefab\". Must not exist yet.", Required = true)]
        public string AssetPath;
    }

    public sealed class InstantiatePrefabArgs
    {
        [ToolArg("The prefab, e.g. \"Assets/Prefabs/Enemy.prefab\".", Required = true)]
        public string AssetPath;

        [ToolArg("Path of the parent, e.g. \"/Enemies\". Default: the scene root.")]
        public string Parent;

        [ToolArg("The instance's name. Default: the prefab's.", MinLength = 1, MaxLength = 200, Pattern = SceneEditTools.NamePattern)]
        public string Name;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Position;

        [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
        public double[] Rotation;
    }

    public sealed class PrefabInstanceArgs
    {
        [ToolArg("A GameObject of the prefab instance, e.g. \"/Enemy\" (its outermost instance root is used).", Required = true)]
        public string Path;
    }

    /// <summary>A prefab instance's root as the prefab tools describe it.</summary>
    public sealed class PrefabInstanceInfo
    {
        public int Id;

        [ToolArg(Required = true)]
        public string Name;

        [ToolArg(Required = true)]
        public string Path;

        [ToolArg("The prefab it is an instance of.", Required = true)]
        public string AssetPath;

        [ToolArg(Required = true)]
        public double[] Position;

        [ToolArg(Required = true)]
        public double[] Rotation;

        [ToolArg(Required = true)]
        public double[] Scale;
    }

    public sealed class PrefabAssetInfo
    {
        [ToolArg(Required = true)]
        public string AssetPath;

        [ToolArg(Required = true)]
        public string Name;

        [ToolArg("GameObjects in the prefab.")]
        public int Objects;
    }

    public sealed class CreatePrefabResult
    {
        [ToolArg(Required = true)]
        public PrefabAssetInfo Prefab;

        [ToolArg(Required = true)]
        public PrefabInstanceInfo Instance;
    }

    public sealed class InstantiatePrefabResult
    {
        [ToolArg(Required = true)]
        public PrefabInstanceInfo Instance;
    }

    public sealed class ApplyPrefabResult
    {
        [ToolArg(Required = true)]
        public PrefabInstanceInfo Instance;

        [ToolArg(Required = true)]
        public OverridesSummary Applied;
    }

    public sealed class RevertPrefabResult
    {
        [ToolArg(Required = true)]
        public PrefabInstanceInfo Instance;

        [ToolArg(Required = true)]
        public OverridesSummary Reverted;
    }

    /// <summary>
    /// Prefab tools on PrefabUtility, every change with InteractionMode.UserAction inside one Undo
    /// group: SaveAsPrefabAssetAndConnect (undo disconnects the GameObject; the asset stays),
    /// InstantiatePrefab, ApplyPrefabInstance (undone with its asset) and RevertPrefabInstance.
    /// Prefab mode is in PrefabStageTools.
    /// </summary>
    public static class PrefabTools
    {
        [TetherTool("create_prefab", Title = "Create prefab",
            Description = "Saves a GameObject (with its children) as a new prefab asset, and makes the GameObject an instance of it. Undo makes it a plain GameObject again; the asset stays, as in Unity. Refuses a GameObject that is or holds a prefab instance (that would nest prefabs).",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(CreatePrefabResult))]
        public static object CreatePrefab(CreatePrefabArgs args)
        {
            const string tool = "create_prefab";
            PrefabStages.RefuseNesting(tool);
            var gameObject = SceneGraph.Require(args.Path);
            var root = EditorServices.Require().ProjectRoot;
            var path = PrefabPaths.New(root, args.AssetPath, tool);
            var inside = HierarchyPath.Walk(new[] { gameObject }, SceneGraph.Children).FirstOrDefault(PrefabUtility.IsPartOfPrefabInstance);
            if (inside != null)
            {
                var problem = "\"" + SceneGraph.PathOf(inside) + "\" is part of an instance of \"" + PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot(inside) + "\"";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": path: " + problem + ", and a prefab made from it would nest prefabs. Apply or revert that instance instead, or choose a GameObject without instances.",
                    new JObject { ["tool"] = tool, ["field"] = "path", ["problem"] = problem });
            }
            ScenePaths.EnsureFolder(root, path);
            GameObject asset;
            bool saved;
            using (new UndoGroup("Create Prefab " + gameObject.name))
            {
                asset = PrefabUtility.SaveAsPrefabAssetAndConnect(gameObject, path, InteractionMode.UserAction, out saved);
            }
            if (!saved)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity could not save the prefab at \"" + path + "\" (the console may say why); the GameObject is unchanged.", new JObject { ["tool"] = tool, ["path"] = path });
            }
            var objects = asset != null ? HierarchyPath.CountSubtree(asset, SceneGraph.Children) : HierarchyPath.CountSubtree(gameObject, SceneGraph.Children);
            return new CreatePrefabResult
            {
                Prefab = new PrefabAssetInfo { AssetPath = path, Name = AssetPaths.NameOf(path), Objects = objects },
                Instance = Describe(gameObject),
            };
        }

        [TetherTool("instantiate_prefab", Title = "Instantiate prefab",
            Description = "Places an instance of a prefab in the active scene, under a parent or at the root, optionally named and placed. Not idempotent: each call places one more.",
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(InstantiatePrefabResult))]
        public static object InstantiatePrefab(InstantiatePrefabArgs args)
        {
            const string tool = "instantiate_prefab";
            PrefabStages.RefuseNesting(tool);
            var path = PrefabPaths.Existing(EditorServices.Require().ProjectRoot, args.AssetPath, tool);
            var asset = AssetDatabase.LoadAssetAtPath<GameObject>(path);
            if (asset == null) throw PrefabPaths.NoPrefab(tool, path, PrefabAssets());
            var parent = args.Parent != null ? SceneGraph.Require(args.Parent) : null;
            var name = args.Name ?? asset.name;
            using (new UndoGroup("Instantiate " + name))
            {
                var instance = (GameObject)(parent != null ? PrefabUtility.InstantiatePrefab(asset, parent.transform) : PrefabUtility.InstantiatePrefab(asset));
                instance.name = name;
                if (args.Position != null) instance.transform.localPosition = ToVector(args.Position);
                if (args.Rotation != null) instance.transform.localEulerAngles = ToVector(args.Rotation);
                Undo.RegisterCreatedObjectUndo(instance, "Instantiate " + name);
                return PlayModeEdits.Noted(new InstantiatePrefabResult { Instance = Describe(instance) });
            }
        }

        [TetherTool("apply_prefab_overrides", Title = "Apply prefab overrides",
            Description = "Applies all overrides of a prefab instance to its prefab asset (Apply All): changed properties, added and removed components, added GameObjects. Every other instance of the prefab then has them too, except where it overrides them itself. The root's name, position and rotation are not applied. One undo step, the asset included.",
            ReadOnly = false, Destructive = true, Idempotent = true, Output = typeof(ApplyPrefabResult))]
        public static object ApplyPrefabOverrides(PrefabInstanceArgs args)
        {
            var root = RequireInstanceRoot(args.Path, "apply_prefab_overrides");
            var applied = PrefabOverrideList.Of(root);
            using (new UndoGroup("Apply Prefab " + root.name))
            {
                PrefabUtility.ApplyPrefabInstance(root, InteractionMode.UserAction);
            }
            return new ApplyPrefabResult { Instance = Describe(root), Applied = applied };
        }

        [TetherTool("revert_prefab_overrides", Title = "Revert prefab overrides",
            Description = "Reverts all overrides of a prefab instance (Revert All): its properties, components and GameObjects become the prefab's again; GameObjects added to it are deleted. The root's name, position and rotation stay. One undo step.",
            ReadOnly = false, Destructive = true, Idempotent = true, Output = typeof(RevertPrefabResult))]
        public static object RevertPrefabOverrides(PrefabInstanceArgs args)
        {
            var root = RequireInstanceRoot(args.Path, "revert_prefab_overrides");
            var reverted = PrefabOverrideList.Of(root);
            using (new UndoGroup("Revert Prefab " + root.name))
            {
                PrefabUtility.RevertPrefabInstance(root, InteractionMode.UserAction);
            }
            return PlayModeEdits.Noted(new RevertPrefabResult { Instance = Describe(root), Reverted = reverted });
        }

        /// <summary>The outermost root of the instance the GameObject at <paramref name="path"/> is part of; INVALID_ARGUMENTS or NOT_FOUND otherwise.</summary>
        private static GameObject RequireInstanceRoot(string path, string tool)
        {
            var gameObject = SceneGraph.Require(path);
            if (!PrefabUtility.IsPartOfPrefabInstance(gameObject))
            {
                var problem = "\"" + SceneGraph.PathOf(gameObject) + "\" is not part of a prefab instance";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": path: " + problem + " (a GameObject added to an instance is not either). Name a GameObject of an instance; find_gameobjects shows which are.",
                    new JObject { ["tool"] = tool, ["field"] = "path", ["problem"] = problem });
            }
            var root = PrefabUtility.GetOutermostPrefabInstanceRoot(gameObject);
            if (PrefabUtility.GetPrefabInstanceStatus(root) == PrefabInstanceStatus.MissingAsset)
            {
                var asset = PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot(root);
                throw new TetherException(ErrorCodes.NotFound, tool + ": the prefab \"" + asset + "\" of the instance is missing. Restore the asset, or delete the instance.", new JObject { ["path"] = asset });
            }
            return root;
        }

        internal static PrefabInstanceInfo Describe(GameObject gameObject)
        {
            var transform = gameObject.transform;
            var position = transform.localPosition;
            var rotation = transform.localEulerAngles;
            var scale = transform.localScale;
            return new PrefabInstanceInfo
            {
                Id = gameObject.GetInstanceID(),
                Name = gameObject.name,
                Path = SceneGraph.PathOf(gameObject),
                AssetPath = PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot(gameObject),
                Position = Vectors.ToJson(position.x, position.y, position.z).ToObject<double[]>(),
                Rotation = Vectors.ToJson(rotation.x, rotation.y, rotation.z).ToObject<double[]>(),
                Scale = Vectors.ToJson(scale.x, scale.y, scale.z).ToObject<double[]>(),
            };
        }

        /// <summary>The project's prefabs under Assets/, for "did you mean".</summary>
        internal static string[] PrefabAssets() =>
            AssetDatabase.FindAssets("t:Prefab", new[] { "Assets" }).Select(AssetDatabase.GUIDToAssetPath).Where(p => p.EndsWith(PrefabPaths.Extension, System.StringComparison.Ordinal)).Distinct().ToArray();

        private static Vector3 ToVector(double[] values)
        {
            var (x, y, z) = Vectors.FromArgs(values);
            return new Vector3(x, y, z);
        }
    }
}
