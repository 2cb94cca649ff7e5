/**
 * Asset paths as the asset tools take them: project-relative, "/" on every OS, under Assets/
 * (or Packages/, read only), as Unity's AssetDatabase names them ("Assets/Art/Red.mat"). The
 * Unity package has the same rules and errors (unity/Editor/Unity/Assets/AssetPaths.cs).
 */
import { posix } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import type { Project } from '../project.js';

/** Whether a path may be written (Assets/) or only read (Assets/ or Packages/). */
export type AssetAccess = 'write' | 'read';

function refuse(tool: string, field: string, problem: string, hint: string): never {
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem });
}

/**
 * The project-relative asset path `input` names (an absolute path inside the project is made
 * relative; "\\" becomes "/"; a trailing "/" goes). PATH_OUTSIDE_PROJECT when it leaves the
 * project; INVALID_ARGUMENTS when it is not under Assets/ (or Packages/ for reading).
 */
export function assetPath(project: Project, input: string, tool: string, field = 'path', access: AssetAccess = 'write'): string {
  const full = project.resolveInside(input.replaceAll('\\', '/'));
  const relative = posix.normalize(full.slice(project.root.length + 1).replaceAll('\\', '/')).replace(/\/+$/, '');
  const top = relative.split('/')[0];
  if (top === 'Packages' && access === 'read') return relative;
  if (top === 'Packages') refuse(tool, field, `"${input}" is in Packages/, which is read-only`, 'Packages are changed with the Package Manager; give a path under Assets/.');
  if (top !== 'Assets') refuse(tool, field, `"${input}" is not under Assets/`, `Give a project-relative path such as "Assets/${posix.basename(relative) || 'Materials'}".`);
  return relative;
}

/** The path of an asset to change or remove: under Assets/, and not Assets itself. */
export function changeableAssetPath(project: Project, input: string, tool: string, field = 'path'): string {
  const path = assetPath(project, input, tool, field);
  if (path === 'Assets') refuse(tool, field, 'the Assets folder itself cannot be moved, renamed or deleted', 'Name something inside it, e.g. "Assets/Materials".');
  return path;
}

/** The path of a new asset of a kind that has one extension (".mat", ".asset"), under Assets/. */
export function newAssetPath(project: Project, input: string, tool: string, extension: string, example: string): string {
  const path = assetPath(project, input, tool);
  if (posix.extname(path) !== extension) {
    const stem = path.slice(0, path.length - posix.extname(path).length);
    refuse(tool, 'path', `"${input}" does not end in ${extension}`, `Give the file name with its extension, e.g. "${stem === 'Assets' ? example : stem + extension}".`);
  }
  if (nameOf(path) === '') refuse(tool, 'path', `"${input}" has no file name`, `Give one, e.g. "${example}".`);
  return path;
}

/** An asset's name as Unity shows it: the file name without its extension. */
export function nameOf(path: string): string {
  const file = posix.basename(path);
  const dot = file.lastIndexOf('.');
  return dot > 0 ? file.slice(0, dot) : file;
}

/** The folder an asset is in ("Assets" for a top-level one). */
export function parentOf(path: string): string {
  return posix.dirname(path);
}

/** Whether `path` is `folder` or inside it. */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(`${folder}/`);
}

/** INVALID_ARGUMENTS for a path another asset already has (never overwritten). */
export function assetTaken(tool: string, field: string, path: string, hint: string): TetherError {
  const problem = `an asset already exists at "${path}"`;
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem, path });
}
