using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using UnityEditor;

namespace Tether.Unity.Menus
{
    /// <summary>
    /// The menu items execute_menu_item can run: every [MenuItem] method of the loaded
    /// assemblies (the project's, packages', Unity's own managed ones), plus Unity's built-in
    /// menus where this Unity lets us read them (UnsupportedMenus). Main thread only.
    /// </summary>
    internal static class MenuCatalog
    {
        /// <summary>Unity's top-level menus, read even when no [MenuItem] names them.</summary>
        private static readonly string[] BuiltInMenus = { "File", "Edit", "Assets", "GameObject", "Component", "Window", "Help" };

        /// <summary>Every runnable item, in path order; <paramref name="note"/> says what could not be listed.</summary>
        public static List<MenuEntry> All(out string note)
        {
            var entries = new List<MenuEntry>();
            foreach (var method in TypeCache.GetMethodsWithAttribute<MenuItem>())
            {
                foreach (var item in method.GetCustomAttributes(typeof(MenuItem), false).OfType<MenuItem>())
                {
                    if (item.validate) continue;
                    entries.Add(new MenuEntry(MenuPaths.Clean(item.menuItem), "[MenuItem] " + Declarer(method)));
                }
            }
            var unity = new UnsupportedMenus();
            var menus = BuiltInMenus.Concat(entries.Select(entry => MenuPaths.RootOf(entry.Path))).Distinct().ToList();
            foreach (var menu in menus)
            {
                foreach (var path in unity.Submenus(menu)) entries.Add(new MenuEntry(MenuPaths.Clean(path), "Unity menu item"));
            }
            note = unity.Note;
            return MenuPaths.Merge(entries);
        }

        private static string Declarer(MethodInfo method) => (method.DeclaringType?.FullName ?? "?").Replace('+', '.') + "." + method.Name;
    }
}
