using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// The error for a component Unity would not add or remove (INVALID_ARGUMENTS: the request
    /// is what Unity refuses), from what Tether can tell of why: a second of a type a GameObject
    /// may have one of (the sandbox's words), components that need the one to remove
    /// ([RequireComponent]); otherwise that Unity refused, and that read_console shows its reason.
    /// </summary>
    internal static class ComponentRefusals
    {
        /// <summary>Unity did not add a <paramref name="type"/> to the GameObject at <paramref name="path"/>.</summary>
        /// <param name="onlyOne">The type a GameObject may have only one of that <paramref name="type"/> is ([DisallowMultipleComponent] on it or a base class; Transform), or null.</param>
        /// <param name="hasOne">Whether the GameObject already has a component of <paramref name="onlyOne"/> (when null, of <paramref name="type"/>).</param>
        public static TetherException AddRefused(string tool, string field, string path, string type, string onlyOne, bool hasOne)
        {
            string problem;
            string hint;
            if (onlyOne != null && hasOne)
            {
                problem = "\"" + path + "\" already has a " + onlyOne + ", and a GameObject can have only one" + (onlyOne == type ? "" : " (a " + type + " is a " + onlyOne + ")");
                hint = "Change the one it has instead.";
            }
            else if (hasOne)
            {
                problem = "Unity refused to add another " + type + " to \"" + path + "\", which already has one";
                hint = "read_console shows Unity's reason (some types allow only one per GameObject). Change the one it has instead.";
            }
            else
            {
                problem = "Unity refused to add a " + type + " to \"" + path + "\"";
                hint = "read_console shows Unity's reason: e.g. it conflicts with a component the GameObject has (a Rigidbody2D beside a Rigidbody), or the script's class is in an Editor assembly or in a file named otherwise. Fix that, or choose another type.";
            }
            return Invalid(tool, field, problem, hint, new JObject());
        }

        /// <summary>Unity kept the <paramref name="type"/> of the GameObject at <paramref name="path"/> it was asked to remove.</summary>
        /// <param name="dependents">The types of its other components that need it ([RequireComponent]), as far as Tether can tell; may be empty.</param>
        public static TetherException RemoveRefused(string tool, string field, string path, string type, IReadOnlyList<string> dependents)
        {
            var names = (dependents ?? new string[0]).Distinct().ToList();
            string problem;
            string hint;
            if (names.Count > 0)
            {
                var them = string.Join(", ", names);
                problem = "Unity refused to remove the " + type + " of \"" + path + "\": its " + them + (names.Count == 1 ? " depends" : " depend") + " on it ([RequireComponent])";
                hint = "Remove " + them + " first.";
            }
            else
            {
                problem = "Unity refused to remove the " + type + " of \"" + path + "\"";
                hint = "Another component most likely depends on it: read_console shows Unity's reason. Remove that one first.";
            }
            return Invalid(tool, field, problem, hint, new JObject { ["dependents"] = new JArray(names) });
        }

        /// <summary>INVALID_ARGUMENTS about <paramref name="field"/>, in the words every tool's argument errors use, with <paramref name="data"/> beside tool, field and problem. HierarchyRefusals words its own with it.</summary>
        internal static TetherException Invalid(string tool, string field, string problem, string hint, JObject data)
        {
            data["tool"] = tool;
            data["field"] = field;
            data["problem"] = problem;
            return new TetherException(ErrorCodes.InvalidArguments, "Invalid arguments for " + tool + ": " + field + ": " + problem + ". " + hint, data);
        }
    }
}
