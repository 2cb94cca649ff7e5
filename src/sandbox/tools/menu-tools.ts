/**
 * Menu items, as Unity's ExecuteMenuItem runs them: synchronously on the main thread. The
 * "File/Build And Run" item is the incident-1 shape: a menu item that blocks for a build.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import { activeBuildTarget } from './build-player.js';
import { buildPlayer, compileScripts, compiledAnswer, type CompileOutcome } from './editor-tools.js';
import { setPlayMode } from './play-mode-tool.js';
import { scriptCompileErrors } from './script-compilation.js';
import { defineTool, type MainThreadContext } from './tool.js';

interface MenuItem {
  path: string;
  description: string;
  run(context: MainThreadContext): unknown;
  /** The item compiles: it fails as compile_scripts does. */
  compiles?: true;
}

/** What Unity says when asked to enter play mode while the scripts do not compile (SceneView.ShowCompileErrorNotification), word for word. */
const PLAY_MODE_COMPILE_ERRORS = 'All compiler errors have to be fixed before you can enter playmode!';

/**
 * Edit/Play as Unity runs it. Entering while the scripts do not compile, Unity stays in edit
 * mode and says so (a notification in the Scene view, or, where no Scene view shows one, as
 * the sandbox has none, an error in the console); the item still ran, so ExecuteMenuItem
 * returns true and the Unity package answers { executed: true }, as this does. Exiting is
 * never refused. Unlike play_mode, which refuses to enter then (PlayModeTool).
 */
function togglePlayMode(context: MainThreadContext): unknown {
  if (!context.playing && scriptCompileErrors(context).length > 0) {
    context.console.write('error', PLAY_MODE_COMPILE_ERRORS);
    return { executed: true };
  }
  return setPlayMode(context, context.playing ? 'exit' : 'enter');
}

/**
 * File/Save (Ctrl+S): saves the loaded scenes' unsaved changes (EditorSceneManager.SaveOpenScenes).
 * In prefab mode Unity saves the prefab instead; the sandbox leaves that to close_prefab.
 */
function saveOpenScenes({ scene, scenes }: MainThreadContext): unknown {
  if (!scenes.stage) for (const loaded of scenes.all) if (loaded.isDirty) scenes.save(loaded, undefined, 'execute_menu_item');
  return { saved: scene.name };
}

const MENU: MenuItem[] = [
  { path: 'File/Save', description: 'Saves the open scene.', run: (c) => saveOpenScenes(c) },
  // Unity's Save Project writes the assets and settings (AssetDatabase.SaveAssets), not the open scenes.
  { path: 'File/Save Project', description: 'Saves all assets.', run: () => ({ saved: 'project' }) },
  { path: 'File/Build And Run', description: 'Builds the player for the active build target (blocks the editor).', run: (c) => buildPlayer(c, activeBuildTarget(), false) },
  { path: 'Assets/Refresh', description: 'Reimports changed assets and recompiles scripts (reloads the domain).', run: (c) => compileScripts(c), compiles: true },
  { path: 'Edit/Play', description: 'Toggles play mode.', run: (c) => togglePlayMode(c) },
  {
    path: 'GameObject/Create Empty',
    description: 'Creates an empty GameObject at the scene root.',
    run: ({ scene, undo }) => ({ created: scene.pathOf(undo.group('Create GameObject', () => scene.create({ name: 'GameObject' }))) }),
  },
  { path: 'Window/General/Console', description: 'Opens the console window.', run: () => ({ opened: 'Console' }) },
  { path: 'Help/About Unity', description: 'Shows the version.', run: () => ({ editor: 'Tether Sandbox', version: '1.0.0' }) },
];

export const menuTools = [
  defineTool({
    name: 'list_menu_items',
    title: 'List menu items',
    description: 'Lists the editor menu items execute_menu_item can run.',
    input: z.object({ filter: z.string().optional().describe('Only items whose path contains this text.') }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ filter }) => ({
      items: MENU.filter((m) => !filter || m.path.toLowerCase().includes(filter.toLowerCase())).map(({ path, description }) => ({ path, description })),
    }),
  }),

  defineTool({
    name: 'execute_menu_item',
    title: 'Execute menu item',
    description: 'Runs an editor menu item by path, synchronously on the main thread. Not idempotent: some items build, compile or create objects.',
    input: z.object({ menuPath: z.string().describe('e.g. "File/Save"') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    execution: { longRunning: true },
    run: ({ menuPath }, context) => {
      const item = MENU.find((m) => m.path === menuPath);
      if (!item) {
        const suggestions = closestNames(menuPath, MENU.map((m) => m.path));
        throw new TetherError(
          'NOT_FOUND',
          `No menu item "${menuPath}".${suggestions.length ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : ''} list_menu_items shows them all.`,
          { menuPath, suggestions },
        );
      }
      const result = item.run(context);
      return item.compiles ? compiledAnswer({ menuPath, result }, result as CompileOutcome) : { menuPath, result };
    },
  }),
];
