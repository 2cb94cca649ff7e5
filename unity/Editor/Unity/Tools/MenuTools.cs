using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Menus;
using Tether.Unity.Scenes;
using UnityEditor;

namespace Tether.Unity.Tools
{
    public sealed class ListMenuItemsArgs
    {
        [ToolArg("Only items whose path contains this text.")]
        public string Filter;
    }

    public sealed class ExecuteMenuItemArgs
    {
        [ToolArg("e.g. \"File/Save\"", Required = true)]
        public string MenuPath;
    }

    /// <summary>Menu items, as Unity's ExecuteMenuItem runs them: synchronously on the main thread.</summary>
    public static class MenuTools
    {
        [TetherTool("list_menu_items", Title = "List menu items",
            Description = "Lists the editor menu items execute_menu_item can run.",
            ReadOnly = true, Idempotent = true)]
        public static object ListMenuItems(ListMenuItemsArgs args)
        {
            var items = MenuPaths.Filter(MenuCatalog.All(out var note), args.Filter);
            var result = new JObject
            {
                ["items"] = new JArray(items.Select(item => new JObject { ["path"] = item.Path, ["description"] = item.Description })),
            };
            if (note != null) result["note"] = note;
            return result;
        }

        [TetherTool("execute_menu_item", Title = "Execute menu item",
            Description = "Runs an editor menu item by path, synchronously on the main thread. Not idempotent: some items build, compile or create objects.",
            ReadOnly = false, Destructive = false, Idempotent = false, LongRunning = true)]
        public static object ExecuteMenuItem(ExecuteMenuItemArgs args)
        {
            var menuPath = args.MenuPath;
            var known = MenuCatalog.All(out var note);
            var listed = known.Any(item => item.Path == menuPath);
            // With a complete list, an unknown path is refused before Unity logs an error for it.
            if (listed || note != null)
            {
                bool ran;
                // What the item changes in the scene is one Undo step, like every other call's.
                using (new UndoGroup(menuPath))
                {
                    ran = EditorApplication.ExecuteMenuItem(menuPath);
                }
                if (ran)
                {
                    return new JObject { ["menuPath"] = menuPath, ["result"] = new JObject { ["executed"] = true } };
                }
                if (listed)
                {
                    throw new TetherException(
                        ErrorCodes.ToolFailed,
                        "Unity did not run the menu item \"" + menuPath + "\": it is disabled right now (its validation refused it, as a greyed-out item would be). Check what it needs (a selection, edit mode), then try again.",
                        new JObject { ["tool"] = "execute_menu_item", ["menuPath"] = menuPath });
                }
            }
            var suggestions = ToolSuggestions.Closest(menuPath, known.Select(item => item.Path));
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            throw new TetherException(
                ErrorCodes.NotFound,
                "No menu item \"" + menuPath + "\"." + hint + " list_menu_items shows them all.",
                new JObject { ["menuPath"] = menuPath, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
