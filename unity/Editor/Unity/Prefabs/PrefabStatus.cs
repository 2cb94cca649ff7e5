using Newtonsoft.Json.Linq;
using UnityEditor;
using UnityEngine;

namespace Tether.Unity.Prefabs
{
    /// <summary>
    /// What the scene tools say of a GameObject that is part of a prefab instance, as the
    /// sandbox says it (src/sandbox/prefabs/prefab-status.ts): { prefab: { assetPath,
    /// instanceRoot, hasOverrides (roots only, default overrides left out) } }.
    /// </summary>
    internal static class PrefabStatus
    {
        public static void AddTo(JObject described, GameObject gameObject)
        {
            if (!PrefabUtility.IsPartOfPrefabInstance(gameObject)) return;
            var status = new JObject { ["assetPath"] = PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot(gameObject) };
            var isRoot = PrefabUtility.IsOutermostPrefabInstanceRoot(gameObject);
            status["instanceRoot"] = isRoot;
            if (isRoot) status["hasOverrides"] = PrefabUtility.HasPrefabInstanceAnyOverrides(gameObject, false);
            described["prefab"] = status;
        }
    }
}
