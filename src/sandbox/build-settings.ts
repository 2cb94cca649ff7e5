/**
 * The sandbox's stand-in for Unity's ProjectSettings/EditorBuildSettings.asset: the Build
 * Settings' scene list in ProjectSettings/EditorBuildSettings.json
 * ({"scenes": [{"path": "Assets/Scenes/SampleScene.unity", "enabled": true}]}), read at each
 * call, as tag-manager.ts reads TagManager.json. build_player builds its enabled scenes when it
 * is given none, as the Unity package builds EditorBuildSettings.scenes' enabled ones. A project
 * without the file has an empty list, as a Unity project whose Build Settings list no scene.
 */
import { join } from 'node:path';
import type { Project } from './project.js';

/** One entry of the list, as EditorBuildSettingsScene has it. */
export interface BuildSettingsScene {
  path: string;
  enabled: boolean;
}

function isEntry(value: unknown): value is BuildSettingsScene {
  const entry = value as Partial<BuildSettingsScene> | null;
  return typeof entry === 'object' && entry !== null && typeof entry.path === 'string' && typeof entry.enabled === 'boolean';
}

/** The Build Settings' scenes, in order; an entry that is not { path, enabled } (a slip in a hand-edited file) is skipped. */
export function buildSettingsScenes(project: Project): BuildSettingsScene[] {
  const settings = project.readJson<{ scenes?: unknown }>(join(project.root, 'ProjectSettings', 'EditorBuildSettings.json'), {});
  return Array.isArray(settings.scenes) ? settings.scenes.filter(isEntry) : [];
}

/** The paths of the enabled scenes, in order: what EditorBuildSettings.scenes gives once the disabled ones are left out. */
export function enabledBuildScenes(project: Project): string[] {
  return buildSettingsScenes(project)
    .filter((scene) => scene.enabled)
    .map((scene) => scene.path);
}
