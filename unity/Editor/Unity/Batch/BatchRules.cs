using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Batch
{
    /// <summary>
    /// Which tools a batch runs (the sandbox's src/sandbox/tools/batch-rules.ts). A batch is one
    /// Undo group that a failure reverts (Undo.RevertAllDownToGroup), so it takes only what that
    /// group takes back whole: read-only tools, and the edits of scene objects that Undo records
    /// (creating, changing, deleting GameObjects and components, their serialized fields,
    /// prefab instances). Everything else is refused before any step runs, because a revert
    /// could not take it back (AssetDatabase operations and saved files, scenes opened, a
    /// compilation or domain reload, a build, a Package Manager request) or it would tangle the
    /// Undo history itself. A tool added later is refused until it is listed here: a batch never
    /// claims a rollback it cannot do. The batch's description lists these rules, and
    /// SandboxParityTests holds it equal to the sandbox's.
    /// </summary>
    internal static class BatchRules
    {
        public const int MaxSteps = 50;

        /// <summary>The edits a batch accepts besides read-only tools: each is an Undo group of scene objects only.</summary>
        public static readonly IReadOnlyList<string> Edits = new[]
        {
            "create_gameobject",
            "modify_gameobject",
            "delete_gameobject",
            "duplicate_gameobject",
            "reparent_gameobject",
            "add_component",
            "remove_component",
            "set_serialized_properties",
            "instantiate_prefab",
            "revert_prefab_overrides",
        };

        /// <summary>Why known tools are refused, by kind.</summary>
        private static readonly (string Reason, string[] Tools)[] Refusals =
        {
            ("it writes, moves or deletes files (assets, scenes, prefabs), which undo does not take back",
                new[] { "create_folder", "move_asset", "rename_asset", "delete_asset", "refresh_assets", "reimport_asset", "create_material", "set_material", "create_scriptable_object", "create_prefab", "apply_prefab_overrides", "save_scene" }),
            ("it changes which scenes or which prefab are open, which is not an undo step",
                new[] { "open_scene", "create_scene", "open_prefab", "close_prefab" }),
            ("it compiles, reloads the domain, or waits for the editor (Package Manager, tests, builds, play mode), which cannot happen inside one undo step",
                new[] { "compile_scripts", "create_script", "edit_script", "build_player", "run_tests", "add_package", "remove_package", "list_packages", "play_mode", "execute_menu_item" }),
            ("it moves through the undo history that the batch is itself one step of",
                new[] { "undo", "redo" }),
            ("it changes editor state that undo does not record, so a rollback would leave it changed",
                new[] { "set_selection", "clear_console" }),
            ("it answers with an image, which a batch's result does not carry",
                new[] { "screenshot" }),
        };

        private static readonly Dictionary<string, string> Refused =
            Refusals.SelectMany(kind => kind.Tools.Select(tool => (tool, kind.Reason))).ToDictionary(pair => pair.tool, pair => pair.Reason);

        /// <summary>
        /// The rules as the batch's description says them (a constant, as attribute arguments
        /// must be; BatchRulesTests holds it equal to Edits and MaxSteps).
        /// </summary>
        public const string Text =
            "Accepts read-only tools (except screenshot and list_packages) and the edits undo takes back whole: create_gameobject, modify_gameobject, delete_gameobject, duplicate_gameobject, reparent_gameobject, add_component, remove_component, set_serialized_properties, instantiate_prefab, revert_prefab_overrides "
            + "(set_serialized_properties on a component, not an asset). Refuses every other tool, and nested batches, before running anything: "
            + "files (assets, scenes, prefabs, scripts), opening scenes or prefabs, compiling, play mode, packages, tests, builds, selection, the console, undo and redo cannot be rolled back. "
            + "At most 50 steps.";

        /// <summary>Why the tool cannot be a step of a batch, or null when it can (its arguments are checked by RefusalOfArguments).</summary>
        public static string RefusalOf(string name, bool readOnly, bool longRunning)
        {
            if (name == "batch") return "a batch cannot run inside a batch; put its steps in this one";
            if (Refused.TryGetValue(name, out var known)) return known;
            if (longRunning) return "it is long-running, and a batch runs its steps at once on the main thread";
            if (readOnly || Edits.Contains(name)) return null;
            return "it is not one of the edits a batch can roll back";
        }

        /// <summary>Why these (valid) arguments make the step one a batch cannot roll back, or null.</summary>
        public static string RefusalOfArguments(string name, JObject arguments)
        {
            // SerializedTools saves an asset it wrote (AssetDatabase.SaveAssetIfDirty): reverting the object would not unwrite the file.
            if (name == "set_serialized_properties" && arguments?["target"]?["asset"]?.Type == JTokenType.String)
            {
                return "written to an asset, its fields are saved to the asset's file, which undo does not take back; give a component in the scene, or call it outside the batch";
            }
            return null;
        }
    }
}
