/**
 * Canonical JSON: object keys sorted at every depth, so two argument objects that mean the
 * same thing serialize identically. Used to recognise a repeated call (same tool, same
 * arguments) whatever key order its client used.
 */
export function canonicalJson(value: unknown): string {
  // A host computes this for every call. Most arguments already have their keys in order
  // (one key, or a client that sorts): JSON.stringify of the value itself is then the same
  // text, without copying the value first.
  return JSON.stringify(inKeyOrder(value) ? value : sortKeys(value));
}

/**
 * Whether every object in the value, at any depth, is a plain one that lists its keys sorted
 * (so sortKeys would copy it unchanged). Anything else (a Date, a class instance) is left to
 * sortKeys, so the result never depends on which path was taken.
 */
function inKeyOrder(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) return value.every(inKeyOrder);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    if (i > 0 && (keys[i - 1] as string) >= (keys[i] as string)) return false;
    if (!inKeyOrder((value as Record<string, unknown>)[keys[i] as string])) return false;
  }
  return true;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a "__proto__" member stays a member.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
