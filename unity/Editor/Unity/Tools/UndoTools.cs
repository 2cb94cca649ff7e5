using System.Collections.Generic;
using Tether.Core.Tools;
using UnityEditor;

namespace Tether.Unity.Tools
{
    public sealed class UndoStepsArgs
    {
        [ToolArg("How many steps (each one tool call that edited, or one editor action).", Minimum = 1, Maximum = 100)]
        public int Steps = 1;
    }

    public sealed class UndoResult
    {
        [ToolArg("How many steps were undone. The sandbox stops when its history runs out; Unity performs each step asked for (one with nothing left to undo does nothing).")]
        public int Performed;

        [ToolArg("The steps undone, in the order performed, when the editor can tell (Unity's API does not say).")]
        public List<string> Names;
    }

    public sealed class RedoResult
    {
        [ToolArg("How many steps were redone. The sandbox stops when its history runs out; Unity performs each step asked for (one with nothing left to redo does nothing).")]
        public int Performed;

        [ToolArg("The steps redone, in the order performed, when the editor can tell (Unity's API does not say).")]
        public List<string> Names;
    }

    /// <summary>
    /// Edit > Undo and Edit > Redo. Each tool call that edits is one Undo group (UndoGroup), so
    /// one step undoes one call. Unity's API performs a step without saying whether there was one
    /// or what it was, so the result counts the steps performed and gives no names.
    /// </summary>
    public static class UndoTools
    {
        [TetherTool("undo", Title = "Undo",
            Description = "Undoes the last edits, as Edit > Undo: one step per tool call that edited. With nothing to undo, it does nothing.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(UndoResult))]
        public static object Undo(UndoStepsArgs args)
        {
            for (var i = 0; i < args.Steps; i++) UnityEditor.Undo.PerformUndo();
            return new UndoResult { Performed = args.Steps };
        }

        [TetherTool("redo", Title = "Redo",
            Description = "Redoes what undo undid, as Edit > Redo. A new edit after an undo clears what could be redone.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(RedoResult))]
        public static object Redo(UndoStepsArgs args)
        {
            for (var i = 0; i < args.Steps; i++) UnityEditor.Undo.PerformRedo();
            return new RedoResult { Performed = args.Steps };
        }
    }
}
