/**
 * GameObject paths matched by a glob, as find_gameobjects takes them: "/Environment/*" (the
 * children of /Environment), "/Environment/**" (everything below it), "**\/Lamp*" (a Lamp… at
 * any depth). "*" and "?" stay within one name; "**" spans any number of names, none included.
 * Without a wildcard a glob is a path, matching every object at that path (names may repeat).
 * The Unity package matches the same way (unity/Editor/Unity/Scenes/HierarchyGlob.cs).
 */

/** A matcher for paths ("/A/B"), from a glob with or without its leading "/". */
export function pathGlob(glob: string): (path: string) => boolean {
  const pattern = split(glob).map((segment) => (segment === '**' ? segment : segmentRegex(segment)));
  return (path) => matches(pattern, split(path), 0, 0);
}

function split(path: string): string[] {
  return (path.startsWith('/') ? path.slice(1) : path).split('/');
}

function segmentRegex(segment: string): RegExp {
  const source = [...segment].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 's');
}

function matches(pattern: ReadonlyArray<RegExp | '**'>, names: readonly string[], p: number, n: number): boolean {
  if (p === pattern.length) return n === names.length;
  const part = pattern[p] as RegExp | '**';
  if (part === '**') {
    for (let skip = n; skip <= names.length; skip++) if (matches(pattern, names, p + 1, skip)) return true;
    return false;
  }
  return n < names.length && part.test(names[n] as string) && matches(pattern, names, p + 1, n + 1);
}
