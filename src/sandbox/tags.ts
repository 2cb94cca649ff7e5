/**
 * Unity's tags: the built-in ones and the project's own (tag-manager.ts), in the order
 * InternalEditorUtility.tags lists them. A GameObject takes only a tag the project defines
 * (Unity throws on assigning another), so the tools check a tag before anything changes, as
 * the Unity package's SceneVocabulary.RequireTag does.
 */
import { TetherError } from '../protocol/index.js';
import { closestNames } from '../schema/suggest.js';
import type { Project } from './project.js';
import { readTagManager } from './tag-manager.js';

/** The tags every Unity project has, which it cannot remove. */
export const BUILT_IN_TAGS: readonly string[] = ['Untagged', 'Respawn', 'Finish', 'EditorOnly', 'MainCamera', 'Player', 'GameController'];

export function tagNames(project: Project): string[] {
  const { tags } = readTagManager(project);
  const own = Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string' && tag !== '' && !BUILT_IN_TAGS.includes(tag)) : [];
  return [...BUILT_IN_TAGS, ...own];
}

/** INVALID_ARGUMENTS (data: tool, field, problem, suggestions) when the project defines no tag `tag`. */
export function requireTag(project: Project, tag: string, tool: string, field = 'tag'): void {
  const tags = tagNames(project);
  if (tags.includes(tag)) return;
  // The Unity package names every tag in its message, and the closest ones in its data only.
  const suggestions = closestNames(tag, tags);
  const problem = `the project defines no tag "${tag}"`;
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. Tags are: ${tags.join(', ')}. Add new ones in Project Settings > Tags and Layers.`, {
    tool,
    field,
    problem,
    suggestions,
  });
}
