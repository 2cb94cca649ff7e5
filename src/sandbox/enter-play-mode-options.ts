/**
 * The sandbox's stand-in for Unity's Enter Play Mode Options (Project Settings > Editor,
 * EditorSettings.enterPlayModeOptionsEnabled and enterPlayModeOptions): in
 * ProjectSettings/EditorSettings.json, `{"enterPlayModeOptionsEnabled": true,
 * "enterPlayModeOptions": ["DisableDomainReload"]}`, read at each use as Unity reads its
 * settings when they change. Entering play mode reloads the code domain unless both say not
 * to, as the Unity package's PlayModeTool.ReloadsOnEnter decides it.
 */
import { join } from 'node:path';
import type { Project } from './project.js';

interface EditorSettings {
  enterPlayModeOptionsEnabled?: unknown;
  enterPlayModeOptions?: unknown;
}

export function reloadsOnEnteringPlayMode(project: Project): boolean {
  const settings = project.readJson<EditorSettings | null>(join(project.root, 'ProjectSettings', 'EditorSettings.json'), null) ?? {};
  const options = Array.isArray(settings.enterPlayModeOptions) ? settings.enterPlayModeOptions : [];
  return !(settings.enterPlayModeOptionsEnabled === true && options.includes('DisableDomainReload'));
}
