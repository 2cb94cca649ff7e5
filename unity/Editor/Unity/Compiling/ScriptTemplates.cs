using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Unity.Assets;

namespace Tether.Unity.Compiling
{
    /// <summary>
    /// The C# files create_script starts from, as Unity's Create menu writes them (MonoBehaviour,
    /// ScriptableObject) or as an editor window needs it; optionally inside a namespace. The same
    /// text as the sandbox's (src/sandbox/csharp/templates.ts): unity/Tests~/fixtures/script-templates.json
    /// holds both to it.
    /// </summary>
    internal static class ScriptTemplates
    {
        public static readonly string[] Names = { "MonoBehaviour", "ScriptableObject", "EditorWindow", "class" };

        private static string[] Body(string template, string name)
        {
            switch (template)
            {
                case "MonoBehaviour":
                    return new[]
                    {
                        "using UnityEngine;", "", "public class " + name + " : MonoBehaviour", "{",
                        "    // Start is called before the first frame update", "    void Start()", "    {", "    }", "",
                        "    // Update is called once per frame", "    void Update()", "    {", "    }", "}",
                    };
                case "ScriptableObject":
                    return new[]
                    {
                        "using UnityEngine;", "", "[CreateAssetMenu(fileName = \"" + name + "\", menuName = \"ScriptableObjects/" + name + "\")]",
                        "public class " + name + " : ScriptableObject", "{", "}",
                    };
                case "EditorWindow":
                    return new[]
                    {
                        "using UnityEditor;", "using UnityEngine;", "", "public class " + name + " : EditorWindow", "{",
                        "    [MenuItem(\"Window/" + name + "\")]", "    public static void ShowWindow()", "    {",
                        "        GetWindow<" + name + ">(\"" + name + "\");", "    }", "", "    void OnGUI()", "    {", "    }", "}",
                    };
                case "class":
                    return new[] { "public class " + name, "{", "}" };
                default:
                    throw new ArgumentException("No script template \"" + template + "\"; there are " + string.Join(", ", Names) + ".");
            }
        }

        /// <summary>Whether the template's script uses UnityEditor, which a player build does not have (EditorWindow).</summary>
        public static bool IsEditorOnly(string template) => Array.IndexOf(Body(template, "T"), "using UnityEditor;") >= 0;

        /// <summary>
        /// Whether one of the folders of <paramref name="path"/> ("Assets/.../X.cs") is named Editor, which puts
        /// the script in Unity's editor assembly. Any case: Unity lowercases the path before it looks for
        /// "/editor/" (EditorBuildRules in its C# reference source). An .asmdef above the file decides instead,
        /// which is not looked at here.
        /// </summary>
        public static bool InEditorFolder(string path)
        {
            var parts = path.Split('/');
            return parts.Take(parts.Length - 1).Any(part => string.Equals(part, "Editor", StringComparison.OrdinalIgnoreCase));
        }

        /// <summary>Where an editor-only script named like <paramref name="path"/> compiles into the editor assembly: "Assets/Editor/X.cs".</summary>
        public static string InAssetsEditor(string path) => "Assets/Editor/" + path.Substring(path.LastIndexOf('/') + 1);

        /// <summary>
        /// INVALID_ARGUMENTS for an editor-only template at a path outside an Editor folder: Unity would compile it
        /// in the editor, and build_player would then fail (CS0246, UnityEditor missing), far from the cause.
        /// </summary>
        public static void CheckPlacement(string tool, string template, string path)
        {
            if (!IsEditorOnly(template) || InEditorFolder(path)) return;
            var suggestion = InAssetsEditor(path);
            throw AssetPaths.Refuse(
                    tool,
                    "path",
                    "the " + template + " template uses UnityEditor, and " + path + " is not in an Editor folder, so a player build would fail to compile it",
                    "Put it in a folder named Editor, e.g. \"" + suggestion + "\". (Only folder names are checked, not assembly definitions: for an editor-only .asmdef's folder, give the whole text as contents.)")
                .With(new JObject { ["path"] = path, ["suggestion"] = suggestion });
        }

        /// <summary>The file's text: the template for <paramref name="name"/>, inside <paramref name="ns"/> when given ("\n" line ends).</summary>
        public static string Render(string template, string name, string ns = null)
        {
            var lines = Body(template, name);
            if (string.IsNullOrEmpty(ns)) return string.Join("\n", lines) + "\n";
            // The usings stay above the namespace; the declaration goes inside it, indented.
            var first = Array.FindIndex(lines, line => line.Length > 0 && !line.StartsWith("using ", StringComparison.Ordinal));
            var text = new List<string>(lines.Take(first)) { "namespace " + ns, "{" };
            text.AddRange(lines.Skip(first).Select(line => line.Length == 0 ? "" : "    " + line));
            text.Add("}");
            return string.Join("\n", text) + "\n";
        }
    }
}
