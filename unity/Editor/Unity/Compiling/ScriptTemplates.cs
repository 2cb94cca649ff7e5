using System;
using System.Collections.Generic;
using System.Linq;

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
