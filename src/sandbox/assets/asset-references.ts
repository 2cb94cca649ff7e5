/**
 * References to assets inside the sandbox's serialized data: {"asset": "Assets/…"} anywhere
 * in a scene, material, ScriptableObject or prefab (the shared file convention). Unity keeps
 * them by GUID, so they follow an asset that moves; the sandbox keeps paths, so a move
 * rewrites them to the same effect.
 */

/** Whether `value` is a reference to an asset: {"asset": "Assets/…"}. */
export function isAssetReference(value: unknown): value is { asset: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { asset?: unknown }).asset === 'string';
}

/** Every asset path `data` references, in order of appearance, each once. */
export function referencedAssets(data: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (isAssetReference(value)) found.add(value.asset);
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(data);
  return [...found];
}

/**
 * `data` with each reference to `from`, or to anything inside it when it is a folder, made to
 * point at the same asset under `to`; undefined when nothing referenced them.
 */
export function retargeted<T>(data: T, from: string, to: string): T | undefined {
  let changed = false;
  const visit = (value: unknown): unknown => {
    if (isAssetReference(value) && (value.asset === from || value.asset.startsWith(`${from}/`))) {
      changed = true;
      return { ...value, asset: to + value.asset.slice(from.length) };
    }
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, visit(v)]));
    return value;
  };
  const result = visit(data) as T;
  return changed ? result : undefined;
}
