/**
 * Prefab mode (PrefabStageUtility.OpenPrefab, StageUtility.GoToMainStage): open a prefab to
 * edit its contents with the GameObject tools, then close it, saving or discarding. Opening
 * and closing are not undo steps, in Unity either; the edits made meanwhile are.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { loadPrefab, readPrefab, writePrefab } from '../prefabs/prefab-file.js';
import { closeStage, currentStage, openStage, stageContents, stageIsDirty, type PrefabStage } from '../prefabs/prefab-stage.js';
import { syncInstances } from '../prefabs/prefab-sync.js';
import { defineTool } from './tool.js';

const stageInfo = z.object({
  assetPath: z.string(),
  name: z.string(),
  root: z.string().describe('The path of the prefab\'s root GameObject while it is open, e.g. "/Enemy".'),
  objects: z.number().int().describe('GameObjects in the prefab.'),
});

function describeStage(stage: PrefabStage): z.infer<typeof stageInfo> {
  const [root] = stage.scene.children(null);
  return { assetPath: stage.assetPath, name: stage.scene.name, root: root ? stage.scene.pathOf(root) : '/', objects: stage.scene.objects.length };
}

export const prefabStageTools = [
  defineTool({
    name: 'open_prefab',
    title: 'Open prefab',
    description:
      'Opens a prefab in prefab mode. While it is open, the GameObject tools (get_hierarchy, find_gameobjects, create_gameobject, modify_gameobject, add_component, …) read and edit the prefab\'s contents instead of the scene, its root at "/<prefab name>"; the scenes stay loaded. close_prefab saves or discards the edits. Refused while another prefab with unsaved changes is open.',
    input: z.object({ assetPath: z.string().describe('The prefab, e.g. "Assets/Prefabs/Enemy.prefab".') }),
    output: z.object({ opened: stageInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ assetPath: input }, { project, scenes, console }) => {
      const tool = 'open_prefab';
      const { path, file } = readPrefab(project, input, tool);
      const current = currentStage(scenes);
      if (current?.assetPath === path) return { opened: describeStage(current) };
      if (current && stageIsDirty(project, current)) {
        const problem = `"${current.assetPath}" is open in prefab mode with unsaved changes`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${problem}. Close it first: close_prefab with save true or false.`, { tool, field: '', problem });
      }
      if (current) closeStage(project, scenes);
      const stage = openStage(project, scenes, path, file);
      console.write('log', `Opened ${path} in prefab mode`);
      return { opened: describeStage(stage) };
    },
  }),

  defineTool({
    name: 'close_prefab',
    title: 'Close prefab',
    description:
      'Leaves prefab mode: saves the open prefab\'s edits to its asset (save true; its instances in every scene follow, keeping their own overrides) or discards them (save false). The GameObject tools then edit the scenes again.',
    input: z.object({ save: z.boolean().describe('Save the edits to the prefab asset (true) or discard them (false).') }),
    output: z.object({
      closed: z.string().describe('The prefab that was open.'),
      saved: z.boolean().describe('Whether the asset was written (false when there was nothing to save, or save was false).'),
      hadUnsavedChanges: z.boolean(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ save }, { project, scenes, console }) => {
      const tool = 'close_prefab';
      const stage = currentStage(scenes);
      if (!stage) throw new TetherError('NOT_FOUND', `${tool}: no prefab is open in prefab mode. open_prefab opens one.`, {});
      const dirty = stageIsDirty(project, stage);
      const next = save && dirty ? stageContents(stage, tool) : undefined;
      const previous = loadPrefab(project, stage.assetPath);
      closeStage(project, scenes);
      if (next) {
        writePrefab(project, stage.assetPath, next);
        syncInstances(project, scenes, stage.assetPath, previous, next);
      }
      console.write('log', `Closed ${stage.assetPath}${next ? ', saved' : dirty ? ', changes discarded' : ''}`);
      return { closed: stage.assetPath, saved: next !== undefined, hadUnsavedChanges: dirty };
    },
  }),
];
