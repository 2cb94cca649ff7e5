using System;
using System.Reflection;
using UnityEditor;

namespace Tether.Unity.Menus
{
    /// <summary>
    /// The one place that asks Unity for its own menus (File, Edit, Window, …, which no
    /// [MenuItem] attribute declares): UnityEditor.Unsupported.GetSubmenus(string), public in
    /// Unity's assembly but not in its documented API, so reached by reflection. When a Unity
    /// version lacks it, Submenus returns nothing and Note says why; list_menu_items then lists
    /// the [MenuItem] items alone.
    /// </summary>
    internal sealed class UnsupportedMenus
    {
        private readonly MethodInfo _getSubmenus;

        public UnsupportedMenus()
        {
            try
            {
                var unsupported = typeof(EditorApplication).Assembly.GetType("UnityEditor.Unsupported");
                _getSubmenus = unsupported?.GetMethod("GetSubmenus", BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic, null, new[] { typeof(string) }, null);
                if (_getSubmenus == null || _getSubmenus.ReturnType != typeof(string[]))
                {
                    _getSubmenus = null;
                    Note = "this Unity has no Unsupported.GetSubmenus: Unity's built-in menu items are not listed (execute_menu_item still runs them by path)";
                }
            }
            catch (Exception error)
            {
                _getSubmenus = null;
                Note = "Unity's built-in menus could not be read (" + error.Message + "): only [MenuItem] items are listed";
            }
        }

        /// <summary>Why Unity's own menus are missing from the list, or null.</summary>
        public string Note { get; private set; }

        /// <summary>The runnable items under a top-level menu, as full paths ("File/Save"); empty when unknown.</summary>
        public string[] Submenus(string menu)
        {
            if (_getSubmenus == null) return Array.Empty<string>();
            try
            {
                var items = _getSubmenus.Invoke(null, new object[] { menu }) as string[] ?? Array.Empty<string>();
                for (var i = 0; i < items.Length; i++)
                {
                    if (items[i] != null && !items[i].StartsWith(menu + "/", StringComparison.Ordinal)) items[i] = menu + "/" + items[i];
                }
                return items;
            }
            catch (Exception error)
            {
                Note = "Unity's menu \"" + menu + "\" could not be read (" + (error.InnerException ?? error).Message + ")";
                return Array.Empty<string>();
            }
        }
    }
}
