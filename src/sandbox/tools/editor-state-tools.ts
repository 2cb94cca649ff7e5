/**
 * get_editor_state: what the editor is and is doing, as Unity's Application,
 * EditorApplication and EditorUserBuildSettings tell it. The sandbox compiles and refreshes on
 * its main thread, where this tool runs too, so it never answers while compiling or updating;
 * it has no window, and is never throttled as an editor in the background is. The selection
 * tools (selection-tools.ts) come with it.
 */
import { z } from 'zod';
import { currentStage } from '../prefabs/prefab-stage.js';
import { activeBuildTarget } from './build-player.js';
import { isPaused } from './play-mode-tool.js';
import { selectionTools } from './selection-tools.js';
import { defineTool } from './tool.js';

/** The editor's own platform, as Application.platform names it. */
const EDITOR_PLATFORMS: Readonly<Record<string, string>> = { linux: 'LinuxEditor', darwin: 'OSXEditor', win32: 'WindowsEditor' };

export const editorStateTools = [
  defineTool({
    name: 'get_editor_state',
    title: 'Get editor state',
    description:
      'Returns what the editor is and is doing: its version, the project, the platform and active build target, whether it is compiling, updating assets, playing or paused, whether it has the focus, the active scene and the prefab open in prefab mode.',
    input: z.object({}),
    output: z.object({
      editor: z.string().describe('"Unity", or "Tether Sandbox".'),
      version: z.string().describe('Unity\'s version (Application.unityVersion), e.g. "2021.3.45f1".'),
      projectPath: z.string().describe('The project\'s folder, absolute.'),
      platform: z.string().describe('The platform the editor runs on (Application.platform), e.g. "WindowsEditor".'),
      buildTarget: z.string().describe('The active build target (EditorUserBuildSettings.activeBuildTarget), e.g. "StandaloneWindows64".'),
      compiling: z.boolean(),
      updating: z.boolean().describe('Refreshing or importing assets.'),
      playing: z.boolean(),
      paused: z.boolean(),
      focused: z.boolean().optional().describe('Whether the editor is the application in front; an editor in the background runs its main thread less often. Absent when the editor cannot tell.'),
      activeScene: z.string().describe('The active scene\'s path ("" for a scene never saved).'),
      prefabStage: z.string().optional().describe('The prefab open in prefab mode, whose contents the GameObject tools edit meanwhile.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (_args, context) => {
      const stage = currentStage(context.scenes);
      return {
        editor: 'Tether Sandbox',
        version: 'sandbox',
        projectPath: context.project.root,
        platform: EDITOR_PLATFORMS[process.platform] ?? 'LinuxEditor',
        buildTarget: activeBuildTarget(),
        compiling: false,
        updating: false,
        playing: context.playing,
        paused: isPaused(context),
        focused: true,
        activeScene: context.scenes.active.path,
        ...(stage ? { prefabStage: stage.assetPath } : {}),
      };
    },
  }),

  ...selectionTools,
];
