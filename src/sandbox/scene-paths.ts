/**
 * Scene asset paths as Unity gives them: project-relative, under Assets/, ending in ".unity"
 * ("Assets/Scenes/Level1.unity"). The sandbox keeps a scene's contents as JSON in the file of
 * the same path with ".json" (Assets/Scenes/Level1.json), as last saved, and a loaded scene's
 * unsaved changes in its working copy under Library/ (workingCopyOf): the tools see Unity's
 * paths only.
 */
import { posix } from 'node:path';
import { TetherError } from '../protocol/index.js';
import type { Project } from './project.js';

export const SCENE_EXTENSION = '.unity';

/**
 * The project-relative scene path `input` names (an absolute path inside the project is made
 * relative; "\\" becomes "/"). PATH_OUTSIDE_PROJECT when it leaves the project; INVALID_ARGUMENTS
 * when it is not a ".unity" file under Assets/.
 */
export function scenePath(project: Project, input: string, tool: string, field = 'path'): string {
  const full = project.resolveInside(input.replaceAll('\\', '/'));
  const relative = posix.normalize(full.slice(project.root.length + 1).replaceAll('\\', '/'));
  const refuse = (problem: string, hint: string): never => {
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem });
  };
  if (!relative.startsWith('Assets/')) refuse(`"${input}" is not under Assets/`, 'Scenes live under Assets/, e.g. "Assets/Scenes/Level1.unity".');
  if (!relative.endsWith(SCENE_EXTENSION)) {
    refuse(`"${input}" is not a scene file (.unity)`, `Give the scene's path with its extension, e.g. "${relative.replace(/\.[^./]*$/, '')}${SCENE_EXTENSION}".`);
  }
  if (sceneNameOf(relative) === '') refuse(`"${input}" has no file name`, 'Give the scene a name, e.g. "Assets/Scenes/Level1.unity".');
  return relative;
}

/** The sandbox's file holding the scene at `path`. */
export function sceneFileOf(path: string): string {
  return `${path.slice(0, -SCENE_EXTENSION.length)}.json`;
}

/** The folder of the loaded scenes' working copies. */
export const WORKING_COPIES = 'Library/Tether/scenes';

/** Where the sandbox keeps the unsaved changes of the loaded scene at `path`, project-relative (its working copy: Library/Tether/scenes/<path>.json). */
export function workingCopyOf(path: string): string {
  return `${WORKING_COPIES}/${path}.json`;
}

/** The scene asset whose contents are in `file`. */
export function scenePathOfFile(file: string): string {
  return `${file.slice(0, -'.json'.length)}${SCENE_EXTENSION}`;
}

/** A scene's name: its file name without the extension, as in Unity. */
export function sceneNameOf(path: string): string {
  return posix.basename(path, SCENE_EXTENSION);
}

/** Whether parsed JSON is a sandbox scene file (other JSON lives under Assets/ too). */
export function isSceneFile(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return typeof file.nextId === 'number' && Array.isArray(file.objects);
}
