using System;
using UnityEditor;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Makes everything a tool changes one Undo step, named after the tool: Ctrl+Z undoes the
    /// whole call, never half of it.
    /// </summary>
    internal sealed class UndoGroup : IDisposable
    {
        private readonly int _group;

        public UndoGroup(string name)
        {
            Undo.IncrementCurrentGroup();
            Undo.SetCurrentGroupName(name);
            _group = Undo.GetCurrentGroup();
        }

        public void Dispose() => Undo.CollapseUndoOperations(_group);
    }
}
