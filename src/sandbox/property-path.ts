/**
 * Property paths as agents write them ("m_Mass", "waypoints[2].position", "stats.maxHealth"),
 * parsed into segments, and written back in Unity's spelling ("waypoints.Array.data[2].position")
 * or the short one. Both spellings are read. The serialized-property tools use it; the Unity
 * package has the same parser (unity/Editor/Unity/Serialization/PropertyPaths.cs).
 */
import { TetherError } from '../protocol/index.js';

/** A field name, or an index into the array before it. */
export type PathSegment = { name: string } | { index: number };

export function parsePropertyPath(path: string, tool: string, field = 'property'): PathSegment[] {
  const refuse = (problem: string): never => {
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. Write a field path such as "m_Mass", "stats.maxHealth" or "waypoints[2].position".`, {
      tool,
      field,
      problem,
    });
  };
  if (path.trim() === '') refuse('the path is empty');
  const segments: PathSegment[] = [];
  let i = 0;
  while (i < path.length) {
    const start = i;
    while (i < path.length && path[i] !== '.' && path[i] !== '[') i++;
    const name = path.slice(start, i);
    if (name === '') {
      if (start === 0 && path[i] === '[') refuse(`"${path}" starts with an index; name the array first`);
      refuse(`"${path}" has an empty name at character ${start + 1}`);
    }
    if (name === 'Array' && segments.length > 0 && path.startsWith('.data[', i)) i += 5;
    else segments.push({ name });
    while (path[i] === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) refuse(`"${path}" has a "[" without its "]"`);
      const text = path.slice(i + 1, close);
      if (!/^\d+$/.test(text)) refuse(`"${path}" has the index "${text}", not a whole number from 0`);
      segments.push({ index: Number(text) });
      i = close + 1;
    }
    if (i < path.length) {
      if (path[i] !== '.') refuse(`"${path}" has "${path[i]}" after an index; use "." before a field`);
      i++;
      if (i === path.length) refuse(`"${path}" ends with "."`);
    }
  }
  return segments;
}

/** Unity's propertyPath: "waypoints.Array.data[2].position". */
export function toUnityPath(segments: readonly PathSegment[]): string {
  return segments.map((s, n) => ('index' in s ? `.Array.data[${s.index}]` : `${n > 0 ? '.' : ''}${s.name}`)).join('');
}

/** The short spelling: "waypoints[2].position". */
export function toShortPath(segments: readonly PathSegment[]): string {
  return segments.map((s, n) => ('index' in s ? `[${s.index}]` : `${n > 0 ? '.' : ''}${s.name}`)).join('');
}
