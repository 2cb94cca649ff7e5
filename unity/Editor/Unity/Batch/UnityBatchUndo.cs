using UnityEditor;

namespace Tether.Unity.Batch
{
    /// <summary>
    /// A batch's Undo group on Unity's Undo: a new group opened and named, each step's own group
    /// (UndoGroup) after it, then CollapseUndoOperations down to the batch's group on success
    /// (one Ctrl+Z takes the batch back) or RevertAllDownToGroup on failure.
    /// </summary>
    internal sealed class UnityBatchUndo : IBatchUndo
    {
        public int Open(string name)
        {
            Undo.IncrementCurrentGroup();
            Undo.SetCurrentGroupName(name);
            return Undo.GetCurrentGroup();
        }

        public void Collapse(int group, string name)
        {
            // The steps named their own groups since: the collapsed step takes the batch's name.
            Undo.SetCurrentGroupName(name);
            Undo.CollapseUndoOperations(group);
        }

        public void Revert(int group) => Undo.RevertAllDownToGroup(group);
    }
}
