using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Paths;
using Tether.Unity.Scenes;
using UnityEditor;
using UnityEditor.SceneManagement;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Tools
{
    public sealed class ListScenesArgs
    {
        [ToolArg("Only scenes whose path contains this text (any case).")]
        public string Filter;
    }

    public sealed class OpenSceneArgs
    {
        [ToolArg("The scene, e.g. \"Assets/Scenes/Level1.unity\".", Required = true)]
        public string Path;

        [ToolArg("Keep the loaded scenes open beside it.")]
        public bool Additive = false;

        [ToolArg("Make it the active scene (always so when not additive).")]
        public bool SetActive = true;

        [ToolArg(SceneFileTools.UnsavedDescription, Enum = new[] { "refuse", "save", "discard" })]
        public string UnsavedChanges = "refuse";
    }

    public sealed class CreateSceneArgs
    {
        [ToolArg("Where to save it, e.g. \"Assets/Scenes/Level2.unity\". Must not exist yet.", Required = true)]
        public string Path;

        [ToolArg(Enum = new[] { "default", "empty" })]
        public string Template = "default";

        [ToolArg("Keep the loaded scenes open beside it.")]
        public bool Additive = false;

        [ToolArg("Make it the active scene (always so when not additive).")]
        public bool SetActive = true;

        [ToolArg(SceneFileTools.UnsavedDescription, Enum = new[] { "refuse", "save", "discard" })]
        public string UnsavedChanges = "refuse";
    }

    public sealed class SaveSceneArgs
    {
        [ToolArg("The loaded scene to save, by path. Default: the active scene.")]
        public string Scene;

        [ToolArg("Save under this new path instead, e.g. \"Assets/Scenes/Level1 Copy.unity\".")]
        public string SaveAs;
    }

    /// <summary>A scene as the scene tools describe it (the sandbox's SceneInfo).</summary>
    public sealed class SceneInfo
    {
        [ToolArg(Required = true)]
        public string Name;

        [ToolArg("Project-relative, e.g. \"Assets/Scenes/Level1.unity\".", Required = true)]
        public string Path;

        public bool IsLoaded;

        [ToolArg("The scene the GameObject tools read and edit, and where new GameObjects go.")]
        public bool IsActive;

        [ToolArg("Changed since it was last saved.")]
        public bool IsDirty;

        [ToolArg("GameObjects at the scene root.")]
        public int RootCount;
    }

    public sealed class ListScenesResult
    {
        public int Count;

        [ToolArg(Required = true)]
        public List<SceneInfo> Scenes;
    }

    public sealed class ActiveSceneResult
    {
        [ToolArg(Required = true)]
        public SceneInfo Active;

        [ToolArg("The loaded scenes, in hierarchy order.", Required = true)]
        public List<SceneInfo> Loaded;
    }

    public sealed class OpenSceneResult
    {
        [ToolArg(Required = true)]
        public SceneInfo Opened;

        [ToolArg("The loaded scenes, in hierarchy order.", Required = true)]
        public List<SceneInfo> Loaded;
    }

    public sealed class CreateSceneResult
    {
        [ToolArg(Required = true)]
        public SceneInfo Created;

        [ToolArg("The loaded scenes, in hierarchy order.", Required = true)]
        public List<SceneInfo> Loaded;
    }

    public sealed class SaveSceneResult
    {
        [ToolArg(Required = true)]
        public SceneInfo Saved;
    }

    /// <summary>
    /// Scene tools that act on scene files and the editor's scene setup (EditorSceneManager):
    /// list, open, create, save, the active scene and what is loaded. Opening, creating and
    /// saving are not Undo steps: Unity's Undo records changes to objects, not scene files.
    /// EditorSceneManager does them in edit mode only, so in play mode they are refused first
    /// (PlayModeRules.RequireEditMode).
    /// </summary>
    public static class SceneFileTools
    {
        internal const string UnsavedDescription = "What to do with loaded scenes that have unsaved changes when this closes them: refuse (the call fails, naming them), save, or discard.";

        [TetherTool("list_scenes", Title = "List scenes",
            Description = "Lists the scene assets under Assets/ and which of them are loaded and active.",
            ReadOnly = true, Idempotent = true, Output = typeof(ListScenesResult))]
        public static object ListScenes(ListScenesArgs args)
        {
            var loaded = Loaded().ToDictionary(scene => scene.path, scene => scene);
            var paths = SceneAssets().Union(loaded.Keys.Where(path => path.Length > 0)).OrderBy(path => path, StringComparer.Ordinal);
            var scenes = paths
                .Where(path => args.Filter == null || path.IndexOf(args.Filter, StringComparison.OrdinalIgnoreCase) >= 0)
                .Select(path => loaded.TryGetValue(path, out var scene)
                    ? Describe(scene)
                    : new SceneInfo { Name = ScenePaths.NameOf(path), Path = path, RootCount = 0 })
                .ToList();
            return new ListScenesResult { Count = scenes.Count, Scenes = scenes };
        }

        [TetherTool("get_active_scene", Title = "Get active scene",
            Description = "Returns the active scene (the one the GameObject tools edit) and every loaded scene.",
            ReadOnly = true, Idempotent = true, Output = typeof(ActiveSceneResult))]
        public static object GetActiveScene() =>
            new ActiveSceneResult { Active = Describe(SceneManager.GetActiveScene()), Loaded = Loaded().Select(Describe).ToList() };

        [TetherTool("open_scene", Title = "Open scene",
            Description = "Opens a scene asset: alone (closing the loaded scenes, as File > Open Scene) or additively beside them. Closing a scene with unsaved changes is refused unless unsavedChanges says save or discard.",
            ReadOnly = false, Destructive = true, Idempotent = true, Output = typeof(OpenSceneResult))]
        public static object OpenScene(OpenSceneArgs args)
        {
            const string tool = "open_scene";
            PlayModeRules.RequireEditMode(tool, "open", EditorApplication.isPlaying);
            var root = EditorServices.Require().ProjectRoot;
            var path = ScenePaths.Normalize(root, args.Path, tool);
            if (!File.Exists(ProjectPaths.ResolveInside(root, path))) throw ScenePaths.NoScene(tool, path, SceneAssets());
            var already = Loaded().Where(scene => scene.path == path).ToList();
            Scene opened;
            if (args.Additive && already.Count > 0)
            {
                opened = already[0];
            }
            else
            {
                if (!args.Additive) HandleUnsaved(tool, args.UnsavedChanges, Loaded());
                opened = EditorSceneManager.OpenScene(path, args.Additive ? OpenSceneMode.Additive : OpenSceneMode.Single);
            }
            if (args.SetActive) SceneManager.SetActiveScene(opened);
            return new OpenSceneResult { Opened = Describe(opened), Loaded = Loaded().Select(Describe).ToList() };
        }

        [TetherTool("create_scene", Title = "Create scene",
            Description = "Creates a new scene, saves it at a path under Assets/ and opens it: alone (closing the loaded scenes) or additively. \"default\" starts it with a Main Camera and a Directional Light, as Unity does; \"empty\" with nothing.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(CreateSceneResult))]
        public static object CreateScene(CreateSceneArgs args)
        {
            const string tool = "create_scene";
            PlayModeRules.RequireEditMode(tool, "create", EditorApplication.isPlaying);
            var root = EditorServices.Require().ProjectRoot;
            var path = ScenePaths.Normalize(root, args.Path, tool);
            if (File.Exists(ProjectPaths.ResolveInside(root, path))) throw ScenePaths.Taken(tool, "path", path, "Open it with open_scene, or choose another path.");
            if (!args.Additive) HandleUnsaved(tool, args.UnsavedChanges, Loaded());
            var setup = args.Template == "empty" ? NewSceneSetup.EmptyScene : NewSceneSetup.DefaultGameObjects;
            var scene = EditorSceneManager.NewScene(setup, args.Additive ? NewSceneMode.Additive : NewSceneMode.Single);
            ScenePaths.EnsureFolder(root, path);
            if (!EditorSceneManager.SaveScene(scene, path))
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity created the scene but could not save it at \"" + path + "\" (the console may say why). It is open, unsaved: save it with save_scene and saveAs.", new JObject { ["tool"] = tool, ["path"] = path });
            }
            if (args.SetActive) SceneManager.SetActiveScene(scene);
            return new CreateSceneResult { Created = Describe(scene), Loaded = Loaded().Select(Describe).ToList() };
        }

        [TetherTool("save_scene", Title = "Save scene",
            Description = "Saves a loaded scene (the active one by default), in place or under a new path it then takes (Save As). Never overwrites another scene.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(SaveSceneResult))]
        public static object SaveScene(SaveSceneArgs args)
        {
            const string tool = "save_scene";
            PlayModeRules.RequireEditMode(tool, "save", EditorApplication.isPlaying);
            var root = EditorServices.Require().ProjectRoot;
            var scene = SceneManager.GetActiveScene();
            if (args.Scene != null)
            {
                var wanted = ScenePaths.Normalize(root, args.Scene, tool, "scene");
                var found = Loaded().Where(s => s.path == wanted).ToList();
                if (found.Count == 0)
                {
                    var loaded = Loaded().Select(s => s.path).ToList();
                    throw new TetherException(ErrorCodes.NotFound, "No loaded scene at \"" + wanted + "\". Loaded: " + string.Join(", ", loaded) + ". Open it first with open_scene.", new JObject { ["path"] = wanted, ["loaded"] = new JArray(loaded) });
                }
                scene = found[0];
            }
            var destination = "";
            if (args.SaveAs != null)
            {
                destination = ScenePaths.Normalize(root, args.SaveAs, tool, "saveAs");
                if (destination != scene.path && File.Exists(ProjectPaths.ResolveInside(root, destination)))
                {
                    throw ScenePaths.Taken(tool, "saveAs", destination, "Choose another path; save_scene never overwrites another scene.");
                }
                ScenePaths.EnsureFolder(root, destination);
            }
            else if (scene.path.Length == 0)
            {
                throw new TetherException(ErrorCodes.InvalidArguments, "Invalid arguments for save_scene: saveAs: the scene \"" + scene.name + "\" was never saved, so it has no path. Give one in saveAs, e.g. \"Assets/Scenes/" + scene.name + ".unity\".", new JObject { ["tool"] = tool, ["field"] = "saveAs", ["problem"] = "the scene has no path yet" });
            }
            if (!EditorSceneManager.SaveScene(scene, destination))
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity could not save the scene \"" + scene.name + "\" (the console may say why).", new JObject { ["tool"] = tool, ["path"] = destination.Length > 0 ? destination : scene.path });
            }
            var saved = destination.Length > 0 ? Loaded().Where(s => s.path == destination).DefaultIfEmpty(scene).First() : scene;
            return new SaveSceneResult { Saved = Describe(saved) };
        }

        /// <summary>The loaded scenes, in hierarchy order.</summary>
        internal static IEnumerable<Scene> Loaded()
        {
            var count = SceneManager.sceneCount;
            for (var i = 0; i < count; i++) yield return SceneManager.GetSceneAt(i);
        }

        /// <summary>The project's scene assets under Assets/ (Packages/ hold read-only ones).</summary>
        private static IEnumerable<string> SceneAssets() =>
            AssetDatabase.FindAssets("t:Scene", new[] { "Assets" })
                .Select(AssetDatabase.GUIDToAssetPath)
                .Where(path => path.EndsWith(ScenePaths.Extension, StringComparison.Ordinal))
                .Distinct()
                .ToList();

        private static SceneInfo Describe(Scene scene)
        {
            var active = SceneManager.GetActiveScene();
            return new SceneInfo
            {
                Name = scene.name,
                Path = scene.path,
                IsLoaded = scene.isLoaded,
                IsActive = scene == active,
                IsDirty = scene.isDirty,
                RootCount = scene.isLoaded ? scene.rootCount : 0,
            };
        }

        /// <summary>Refuses, or saves, the scenes with unsaved changes that opening a scene alone would close.</summary>
        private static void HandleUnsaved(string tool, string unsavedChanges, IEnumerable<Scene> closing)
        {
            var scenes = closing.ToList();
            var dirty = ScenePaths.UnsavedToHandle(tool, unsavedChanges, scenes.Select(scene => (scene.path, scene.name, scene.isDirty)));
            if (dirty.Count == 0 || unsavedChanges != "save") return;
            foreach (var scene in scenes.Where(scene => scene.isDirty))
            {
                if (scene.path.Length == 0)
                {
                    throw new TetherException(ErrorCodes.InvalidArguments, "Invalid arguments for " + tool + ": unsavedChanges: the scene \"" + scene.name + "\" was never saved, so \"save\" has nowhere to save it. Save it first with save_scene and saveAs, or call again with unsavedChanges \"discard\".", new JObject { ["tool"] = tool, ["field"] = "unsavedChanges" });
                }
                if (!EditorSceneManager.SaveScene(scene)) throw new TetherException(ErrorCodes.ToolFailed, "Unity could not save the scene \"" + scene.path + "\" before closing it; nothing was closed.", new JObject { ["tool"] = tool, ["path"] = scene.path });
            }
        }
    }
}
