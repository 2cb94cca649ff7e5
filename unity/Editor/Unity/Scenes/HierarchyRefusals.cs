using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// The errors for a move or a delete Unity does not make (INVALID_ARGUMENTS: the request is
    /// what Unity refuses). A prefab instance keeps its prefab's hierarchy: Unity moves none of an
    /// instance's own children out of it, and before 2022.2 deletes none either. Refused up front
    /// where Tether can tell, and checked after the fact where it cannot, so a call never says it
    /// moved or deleted what is still where it was. Same words as the sandbox
    /// (src/sandbox/tools/gameobject-tools.ts).
    /// </summary>
    internal static class HierarchyRefusals
    {
        /// <summary>The GameObject at <paramref name="path"/> is a child of the prefab instance whose root is at <paramref name="instanceRoot"/>.</summary>
        public static TetherException MoveInsideInstance(string tool, string path, string instanceRoot) =>
            ComponentRefusals.Invalid(
                tool,
                "path",
                "\"" + path + "\" is part of the prefab instance \"" + instanceRoot + "\", whose own children Unity does not move",
                "Move the whole instance (\"" + instanceRoot + "\"), or change the prefab itself (open_prefab).",
                new JObject { ["instanceRoot"] = instanceRoot });

        /// <summary>After Undo.SetTransformParent, the GameObject at <paramref name="path"/> is not under <paramref name="parent"/> (null: the scene root).</summary>
        public static TetherException ReparentRefused(string tool, string path, string parent) =>
            ComponentRefusals.Invalid(
                tool,
                "parent",
                "Unity did not move \"" + path + "\" " + (parent == null ? "to the scene root" : "under \"" + parent + "\""),
                "Nothing was changed; read_console shows Unity's reason.",
                new JObject());

        /// <summary>After Undo.DestroyObjectImmediate, the GameObject at <paramref name="path"/> is still there.</summary>
        public static TetherException DeleteRefused(string tool, string path) =>
            ComponentRefusals.Invalid(
                tool,
                "path",
                "Unity did not delete \"" + path + "\"",
                "Nothing was changed; read_console shows Unity's reason (before Unity 2022.2, a prefab instance's own children cannot be deleted: delete the whole instance, or change the prefab itself with open_prefab).",
                new JObject());
    }
}
