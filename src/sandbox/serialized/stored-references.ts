/**
 * References as the sandbox stores them in serialized values: a GameObject (or one of its
 * components) by id, {"gameObjectId": 7, "component"?: "Light"}, as Unity keeps them by file
 * id; or an asset, {"asset": "Assets/…"}; or, written by hand, a path, {"gameObject": "/Path"}.
 * A leaf, so that the scene and the prefab model can both remap them.
 */

/** A reference to another object: compared and remapped whole, never as a struct of fields. */
export function isStoredReference(value: object): boolean {
  return 'gameObjectId' in value || 'asset' in value || 'gameObject' in value;
}

/** `value` with every reference to a GameObject by id mapped through `map` (null where it maps nowhere). */
export function remapReferences(value: unknown, map: (id: number) => number | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => remapReferences(v, map));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (typeof record.gameObjectId === 'number') {
    const mapped = map(record.gameObjectId);
    return mapped === undefined ? null : { ...record, gameObjectId: mapped };
  }
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, remapReferences(v, map)]));
}
