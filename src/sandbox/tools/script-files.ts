/**
 * C# script files as the script tools read and write them: a project-relative path under
 * Assets/ ending in ".cs", the file's SHA-256 (what an edit may require to refuse a stale
 * change), and a checked text edit that applies only where its old text occurs exactly once.
 */
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Project } from '../project.js';
import { invalidArgument } from './tool-errors.js';

/**
 * The project-relative path of a script ("Assets/Scripts/Player.cs"); PATH_OUTSIDE_PROJECT when
 * `input` leaves the project, INVALID_ARGUMENTS when it is not a ".cs" file under Assets/.
 */
export function scriptPath(project: Project, input: string, tool: string, field = 'path'): string {
  const full = project.resolveInside(input.replaceAll('\\', '/'));
  const relative = posix.normalize(full.slice(project.root.length + 1).replaceAll('\\', '/'));
  const example = 'e.g. "Assets/Scripts/Player.cs"';
  if (!relative.startsWith('Assets/')) throw invalidArgument(tool, field, `"${input}" is not under Assets/`, `Unity compiles the scripts under Assets/, ${example}.`);
  if (!relative.endsWith('.cs') || posix.basename(relative) === '.cs') {
    throw invalidArgument(tool, field, `"${input}" is not a C# file (.cs)`, `Give the script's path with its name and extension, ${example}.`);
  }
  return relative;
}

/** The name of the class a script is expected to hold: its file name without ".cs". */
export function scriptClassName(path: string): string {
  return posix.basename(path, '.cs');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Where `needle` starts in `text`, each place (overlapping ones too: "aa" is twice in "aaa"). */
function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** `text` with its one occurrence of `oldText` replaced, and the line it starts on; INVALID_ARGUMENTS unless it occurs exactly once. */
export function replaceOnce(text: string, oldText: string, newText: string, path: string, tool: string): { text: string; line: number } {
  if (oldText === '') throw invalidArgument(tool, 'oldText', 'it is empty', 'Give the exact text to replace, as it is in the file.');
  const places = occurrences(text, oldText);
  if (places.length === 1) {
    const at = places[0]!;
    return { text: text.slice(0, at) + newText + text.slice(at + oldText.length), line: text.slice(0, at).split(/\r\n|\n|\r/).length };
  }
  if (places.length === 0) {
    const unify = (s: string): string => s.replaceAll('\r\n', '\n');
    const lineEnds = occurrences(unify(text), unify(oldText)).length > 0 ? ' It does once its line ends are ignored: the file\'s lines end with "\\r\\n", give oldText the same.' : '';
    throw invalidArgument(tool, 'oldText', `it occurs 0 times in ${path}`, `It must occur exactly once.${lineEnds} Read the file again: it may differ from what you remember.`, { occurrences: 0 });
  }
  throw invalidArgument(tool, 'oldText', `it occurs ${places.length} times in ${path}`, 'It must occur exactly once: include more of the text around it.', { occurrences: places.length });
}
