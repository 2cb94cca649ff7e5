using System;
using Tether.Core.Protocol;
using UnityEditor;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Makes everything a tool changes one Undo step, named after the tool: Ctrl+Z undoes the
    /// whole call, never half of it. A call that fails half-way (Unity refusing a component it
    /// was asked to add or remove) takes back what it did first (<see cref="Revert"/>), so it
    /// leaves nothing half-done, as a call refused before any change does.
    /// </summary>
    internal sealed class UndoGroup : IDisposable
    {
        private readonly int _group;
        private bool _reverted;

        public UndoGroup(string name)
        {
            Undo.IncrementCurrentGroup();
            Undo.SetCurrentGroupName(name);
            _group = Undo.GetCurrentGroup();
        }

        /// <summary>
        /// Reverts every change since the group began (Undo.RevertAllDownToGroup: nothing is left
        /// to redo) and returns <paramref name="error"/>, for the caller to throw.
        /// </summary>
        public TetherException Revert(TetherException error)
        {
            if (!_reverted)
            {
                _reverted = true;
                Undo.RevertAllDownToGroup(_group);
            }
            return error;
        }

        public void Dispose()
        {
            if (!_reverted) Undo.CollapseUndoOperations(_group);
        }
    }
}
