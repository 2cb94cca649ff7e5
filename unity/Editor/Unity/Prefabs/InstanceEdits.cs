using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Prefabs
{
    /// <summary>
    /// Edits made straight to a prefab instance's objects (not through a SerializedObject) are
    /// lost when the scene is saved and reopened unless recorded as the instance's overrides:
    /// after Undo.RecordObject and the edit, PrefabUtility.RecordPrefabInstancePropertyModifications,
    /// as its Scripting API page shows. Objects of no instance need nothing.
    /// </summary>
    internal static class InstanceEdits
    {
        public static void Record(Object edited)
        {
            if (PrefabUtility.IsPartOfPrefabInstance(edited)) PrefabUtility.RecordPrefabInstancePropertyModifications(edited);
        }
    }
}
