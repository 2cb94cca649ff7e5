using System;
using System.Collections.Generic;
using System.Linq;

namespace Tether.Unity.Menus
{
    /// <summary>One entry of list_menu_items: { path, description }.</summary>
    internal sealed class MenuEntry
    {
        public MenuEntry(string path, string description)
        {
            Path = path;
            Description = description ?? "";
        }

        public string Path { get; }

        public string Description { get; }
    }

    /// <summary>Menu item paths as Unity writes them in [MenuItem], made into what ExecuteMenuItem takes; without Unity.</summary>
    internal static class MenuPaths
    {
        /// <summary>The characters that start a hotkey suffix ("Tools/Build %#b": Ctrl/Cmd+Shift+B; "_g": G alone).</summary>
        private const string HotkeyStarts = "%#&^_";

        /// <summary>
        /// The path without its hotkey suffix and with each name trimmed, as Unity's own menu
        /// shows it: "Tools/ Do It %g" is "Tools/Do It".
        /// </summary>
        public static string Clean(string menuItem)
        {
            if (string.IsNullOrWhiteSpace(menuItem)) return "";
            var path = menuItem.Trim();
            var space = path.LastIndexOf(' ');
            var slash = path.LastIndexOf('/');
            if (space > slash && space < path.Length - 1 && HotkeyStarts.IndexOf(path[space + 1]) >= 0)
            {
                path = path.Substring(0, space);
            }
            return string.Join("/", path.Split('/').Select(name => name.Trim()));
        }

        /// <summary>
        /// Whether execute_menu_item can run the item from a path: not a component's context menu
        /// ("CONTEXT/…"), not one of Unity's internal menus ("internal:…"), and a path with a menu
        /// and an item.
        /// </summary>
        public static bool IsRunnable(string path) =>
            !string.IsNullOrEmpty(path)
            && path.IndexOf('/') > 0
            && !path.EndsWith("/", StringComparison.Ordinal)
            && !path.StartsWith("CONTEXT/", StringComparison.Ordinal)
            && !path.StartsWith("internal:", StringComparison.Ordinal);

        /// <summary>The first name of a path ("GameObject" for "GameObject/Create Empty").</summary>
        public static string RootOf(string path)
        {
            var slash = path?.IndexOf('/') ?? -1;
            return slash > 0 ? path.Substring(0, slash) : path;
        }

        /// <summary>One entry per path (the first description wins), runnable ones only, in path order.</summary>
        public static List<MenuEntry> Merge(IEnumerable<MenuEntry> entries)
        {
            var byPath = new Dictionary<string, MenuEntry>(StringComparer.Ordinal);
            foreach (var entry in entries)
            {
                if (entry == null || !IsRunnable(entry.Path) || byPath.ContainsKey(entry.Path)) continue;
                byPath[entry.Path] = entry;
            }
            return byPath.Values.OrderBy(entry => entry.Path, StringComparer.Ordinal).ToList();
        }

        /// <summary>The entries whose path contains <paramref name="filter"/> (case-insensitive); all when it is empty.</summary>
        public static List<MenuEntry> Filter(IEnumerable<MenuEntry> entries, string filter) =>
            entries.Where(entry => string.IsNullOrEmpty(filter) || entry.Path.IndexOf(filter, StringComparison.OrdinalIgnoreCase) >= 0).ToList();
    }
}
