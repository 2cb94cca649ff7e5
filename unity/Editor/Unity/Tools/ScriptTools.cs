using System;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Compiling;
using Tether.Unity.Paths;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tools
{
    public sealed class CreateScriptArgs
    {
        [ToolArg("Where to create it, e.g. \"Assets/Scripts/Player.cs\". Must not exist yet.", Required = true)]
        public string Path;

        [ToolArg("The whole file. Omit it to start from a template.")]
        public string Contents;

        [ToolArg("What to start from when contents is omitted (default MonoBehaviour).", Enum = new[] { "MonoBehaviour", "ScriptableObject", "EditorWindow", "class" })]
        public string Template;

        [ToolArg("The class a template declares. Default: the file name; a MonoBehaviour or ScriptableObject must match it.")]
        public string ClassName;

        [ToolArg("A namespace to put the template's class in, e.g. \"Game.Player\".")]
        public string Namespace;
    }

    public sealed class EditScriptArgs
    {
        [ToolArg("The script, e.g. \"Assets/Scripts/Player.cs\".", Required = true)]
        public string Path;

        [ToolArg("The whole new file. Give this, or oldText and newText.")]
        public string Contents;

        [ToolArg("Text to replace, exactly as it is in the file; it must occur exactly once.")]
        public string OldText;

        [ToolArg("What replaces oldText (may be empty).")]
        public string NewText;

        [ToolArg("Refuse the edit unless the file's SHA-256 is this (what an earlier answer gave).", Pattern = "^[0-9a-f]{64}$")]
        public string ExpectedSha256;
    }

    /// <summary>A script as create_script wrote it, and what compiling it did.</summary>
    public class ScriptWritten
    {
        [ToolArg("Project-relative, e.g. \"Assets/Scripts/Player.cs\".", Required = true)]
        public string Path;

        [ToolArg("The SHA-256 of the file as written: give it to edit_script as expectedSha256 to refuse an edit if the file changed since.", Required = true)]
        public string Sha256;

        [ToolArg(Required = true)]
        public CompileResult Compile;
    }

    public sealed class ScriptEdited : ScriptWritten
    {
        [ToolArg("The SHA-256 of the file before the edit.", Required = true)]
        public string PreviousSha256;

        [ToolArg("Where oldText was (from 1).")]
        public int? EditedLine;
    }

    /// <summary>
    /// create_script and edit_script: write a C# file (whole, from a template, or by a checked
    /// text edit), import it, and answer when Unity's compile finishes, with every compiler
    /// message. A compile that fails is a failed call whose data carries the messages; the file
    /// stays written (Unity keeps its previous scripts until the errors are fixed). One that
    /// succeeds is answered before Unity reloads the domain (CompileWait). Files are not Undo steps.
    /// </summary>
    public static class ScriptTools
    {
        [TetherTool("create_script", Title = "Create script",
            Description = "Creates a C# script under Assets/ from its whole text or from a template (MonoBehaviour, ScriptableObject, EditorWindow, plain class), then compiles the project's scripts. Answers with every compiler message; with compile errors the call fails (the file stays written: fix it with edit_script). On success the editor reloads its code domain and the answer arrives after the reload. Never overwrites a file.",
            ReadOnly = false, Destructive = false, Idempotent = false, LongRunning = true, Output = typeof(ScriptWritten))]
        public static Task<object> CreateScript(CreateScriptArgs args, IToolContext context)
        {
            const string tool = "create_script";
            var services = EditorServices.Require();
            var path = ScriptFiles.Normalize(services.ProjectRoot, args.Path, tool);
            if (File.Exists(ProjectPaths.ResolveInside(services.ProjectRoot, path)))
            {
                throw AssetPaths.Refuse(tool, "path", path + " already exists", "Change it with edit_script, or choose another path; create_script never overwrites a file.");
            }
            if (args.Contents != null)
            {
                var extra = args.Template != null ? "template" : args.ClassName != null ? "className" : args.Namespace != null ? "namespace" : null;
                if (extra != null) throw AssetPaths.Refuse(tool, extra, "it applies to a template, and contents was given", "Give either the whole file (contents) or a template with its " + extra + ".");
                return WriteAndCompile(context, services, tool, path, args.Contents, (hash, compile) => new ScriptWritten { Path = path, Sha256 = hash, Compile = compile });
            }
            var template = args.Template ?? "MonoBehaviour";
            var name = args.ClassName ?? ScriptFiles.ClassName(path);
            ScriptFiles.CheckIdentifier(tool, args.ClassName == null ? "path" : "className", name, "Name the class with letters, digits and \"_\", not starting with a digit (give className, or rename the file).");
            foreach (var part in args.Namespace?.Split('.') ?? Array.Empty<string>()) ScriptFiles.CheckIdentifier(tool, "namespace", part, "Give names joined by \".\", e.g. \"Game.Player\".");
            if ((template == "MonoBehaviour" || template == "ScriptableObject") && name != ScriptFiles.ClassName(path))
            {
                throw AssetPaths.Refuse(tool, "className", "a " + template + " named \"" + name + "\" in " + path, "Unity finds a " + template + " by its file's name: name the file \"" + name + ".cs\", or leave className out.");
            }
            ScriptTemplates.CheckPlacement(tool, template, path);
            var text = ScriptTemplates.Render(template, name, args.Namespace);
            return WriteAndCompile(context, services, tool, path, text, (hash, compile) => new ScriptWritten { Path = path, Sha256 = hash, Compile = compile });
        }

        [TetherTool("edit_script", Title = "Edit script",
            Description = "Changes a C# script under Assets/: replaces its whole text (contents), or replaces oldText, which must occur exactly once, with newText. Refuses a stale edit when expectedSha256 (from create_script, edit_script or a read) differs from the file's. Then compiles the project's scripts and answers with every compiler message; with compile errors the call fails (the edit stays: fix it with another edit). On success the editor reloads its code domain and the answer arrives after the reload.",
            ReadOnly = false, Destructive = true, Idempotent = false, LongRunning = true, Output = typeof(ScriptEdited))]
        public static Task<object> EditScript(EditScriptArgs args, IToolContext context)
        {
            const string tool = "edit_script";
            var services = EditorServices.Require();
            var path = ScriptFiles.Normalize(services.ProjectRoot, args.Path, tool);
            var full = ProjectPaths.ResolveInside(services.ProjectRoot, path);
            if (!File.Exists(full)) throw ScriptFiles.NoScript(tool, path, ProjectScripts(services.ProjectRoot));
            var current = ScriptFiles.Read(full);
            var previous = ScriptFiles.Sha256(current);
            if (args.ExpectedSha256 != null && args.ExpectedSha256 != previous)
            {
                throw AssetPaths.Refuse(tool, "expectedSha256", path + " changed since (its SHA-256 is now " + previous + ")", "Read the file again and make your edit against what it holds now.")
                    .With(new JObject { ["expected"] = args.ExpectedSha256, ["actual"] = previous });
            }
            if ((args.Contents == null) == (args.OldText == null))
            {
                var none = args.Contents == null;
                throw AssetPaths.Refuse(tool, none ? "contents" : "oldText", none ? "neither contents nor oldText was given" : "both contents and oldText were given", "Give the whole new file (contents), or oldText and newText.");
            }
            if (args.OldText != null && args.NewText == null) throw AssetPaths.Refuse(tool, "newText", "it is missing", "Give the text that replaces oldText (\"\" to delete it).");
            int? line = null;
            var text = args.Contents;
            if (text == null)
            {
                var edit = ScriptFiles.ReplaceOnce(current, args.OldText, args.NewText, path, tool);
                text = edit.Text;
                line = edit.Line;
            }
            return WriteAndCompile(context, services, tool, path, text, (hash, compile) => new ScriptEdited { Path = path, Sha256 = hash, Compile = compile, PreviousSha256 = previous, EditedLine = line });
        }

        /// <summary>Writes the file, has Unity import it, and answers when the compile ends; a failed compile fails the call (the file stays).</summary>
        private static Task<object> WriteAndCompile(IToolContext context, EditorServices services, string tool, string path, string text, Func<string, CompileResult, object> answer)
        {
            ScriptFiles.Write(ProjectPaths.ResolveInside(services.ProjectRoot, path), text);
            var hash = ScriptFiles.Sha256(text);
            return CompileWait.Run(
                context,
                services,
                () =>
                {
                    AssetDatabase.ImportAsset(path, ImportAssetOptions.ForceUpdate);
                    CompilationPipeline.RequestScriptCompilation();
                },
                outcome =>
                {
                    if (outcome.Succeeded) return answer(hash, outcome.ToResult());
                    var data = new JObject { ["tool"] = tool, ["path"] = path, ["written"] = true, ["sha256"] = hash };
                    data.Merge(outcome.ToJson());
                    throw new TetherException(ErrorCodes.ToolFailed, outcome.FailureText(path + " was written (it stays), but the scripts do not compile. "), data);
                });
        }

        /// <summary>The project's scripts under Assets/ (not in folders Unity hides), for "did you mean".</summary>
        private static string[] ProjectScripts(string projectRoot)
        {
            var assets = ProjectPaths.ResolveInside(projectRoot, "Assets");
            if (!Directory.Exists(assets)) return Array.Empty<string>();
            return Directory.EnumerateFiles(assets, "*.cs", SearchOption.AllDirectories)
                .Select(file => ProjectPaths.Relative(projectRoot, file))
                .Where(file => !file.Split('/').Any(part => part.StartsWith(".", StringComparison.Ordinal) || part.EndsWith("~", StringComparison.Ordinal)))
                .OrderBy(file => file, StringComparer.Ordinal)
                .ToArray();
        }
    }
}
