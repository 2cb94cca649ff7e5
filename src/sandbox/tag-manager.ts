/**
 * The sandbox's stand-in for Unity's ProjectSettings/TagManager.asset: the project's own tags
 * and layers in ProjectSettings/TagManager.json ({"tags": ["Enemy"], "layers": ["", …]}),
 * read at each call, as Unity reads its settings when they change.
 */
import { join } from 'node:path';
import type { Project } from './project.js';

export interface TagManagerSettings {
  tags?: unknown;
  layers?: unknown;
}

export function readTagManager(project: Project): TagManagerSettings {
  return project.readJson<TagManagerSettings>(join(project.root, 'ProjectSettings', 'TagManager.json'), {});
}
