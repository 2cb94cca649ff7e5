/**
 * Unity's 32 layers: the built-in ones (Default, TransparentFX, Ignore Raycast, Water, UI) and
 * the project's own, which the sandbox reads from ProjectSettings/TagManager.json (tag-manager.ts:
 * {"layers": ["", …, "Enemies", …]}, index = layer, as Unity's TagManager lists them). The
 * GameObject tools take a layer by name or by index ("8"), as LayerMask.NameToLayer and
 * GameObject.layer do.
 */
import { TetherError } from '../protocol/index.js';
import { closestNames } from '../schema/suggest.js';
import type { Project } from './project.js';
import { readTagManager } from './tag-manager.js';

export const LAYER_COUNT = 32;

/** The layers Unity names itself, which a project cannot rename. */
const BUILT_IN: Readonly<Record<number, string>> = { 0: 'Default', 1: 'TransparentFX', 2: 'Ignore Raycast', 4: 'Water', 5: 'UI' };

/** Each layer's name by index ("" for a layer without one), as LayerMask.LayerToName gives them. */
export function layerNames(project: Project): string[] {
  const settings = readTagManager(project);
  const own = Array.isArray(settings.layers) ? settings.layers : [];
  return Array.from({ length: LAYER_COUNT }, (_, n) => BUILT_IN[n] ?? (typeof own[n] === 'string' ? (own[n] as string) : ''));
}

/** The layer `value` names: a layer's name, or its index from 0 to 31; INVALID_ARGUMENTS with the closest names otherwise. */
export function requireLayer(project: Project, value: string, tool: string, field = 'layer'): number {
  if (/^\d+$/.test(value) && Number(value) < LAYER_COUNT) return Number(value);
  const names = layerNames(project);
  const index = value === '' ? -1 : names.indexOf(value);
  if (index >= 0) return index;
  const named = names.filter((name) => name !== '');
  const suggestions = closestNames(value, named);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  const problem = `the project has no layer "${value}"`;
  throw new TetherError(
    'INVALID_ARGUMENTS',
    `Invalid arguments for ${tool}: ${field}: ${problem}.${hint} Layers: ${named.join(', ')} (or give an index from 0 to 31). Add layers in Project Settings > Tags and Layers.`,
    { tool, field, problem, suggestions },
  );
}
