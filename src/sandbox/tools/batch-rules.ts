/**
 * Which tools a batch runs. A batch is one undo step that a failure rolls back, so it takes
 * only what its undo group takes back whole: read-only tools, and the edits of scene objects
 * that Unity's Undo records (creating, changing, deleting GameObjects and components, their
 * serialized fields, prefab instances). Everything else is refused before any step runs,
 * because a rollback could not take it back (files written, scenes opened, a compilation, a
 * build) or it would tangle the undo history itself. A tool added later is refused until it
 * is listed here: a batch never claims a rollback it cannot do.
 *
 * The Unity package keeps the same rules (unity/Editor/Unity/Batch/BatchRules.cs), and the
 * batch's description, which lists them, is compared between the two hosts.
 */

export const MAX_BATCH_STEPS = 50;

/** The edits a batch accepts besides read-only tools: each is an undo step of scene objects only. */
export const BATCH_EDITS = [
  'create_gameobject',
  'modify_gameobject',
  'delete_gameobject',
  'duplicate_gameobject',
  'reparent_gameobject',
  'add_component',
  'remove_component',
  'set_serialized_properties',
  'instantiate_prefab',
  'revert_prefab_overrides',
] as const;

/** Why known tools are refused, by kind; the tools of each kind. */
const REFUSALS: ReadonlyArray<readonly [reason: string, tools: readonly string[]]> = [
  [
    'it writes, moves or deletes files (assets, scenes, prefabs), which undo does not take back',
    ['create_folder', 'move_asset', 'rename_asset', 'delete_asset', 'refresh_assets', 'reimport_asset', 'create_material', 'set_material', 'create_scriptable_object', 'create_prefab', 'apply_prefab_overrides', 'save_scene'],
  ],
  ['it changes which scenes or which prefab are open, which is not an undo step', ['open_scene', 'create_scene', 'open_prefab', 'close_prefab']],
  [
    'it compiles, reloads the domain, or waits for the editor (Package Manager, tests, builds, play mode), which cannot happen inside one undo step',
    ['compile_scripts', 'create_script', 'edit_script', 'build_player', 'run_tests', 'add_package', 'remove_package', 'list_packages', 'play_mode', 'execute_menu_item'],
  ],
  ['it moves through the undo history that the batch is itself one step of', ['undo', 'redo']],
  ['it changes editor state that undo does not record, so a rollback would leave it changed', ['set_selection', 'clear_console']],
  ['it answers with an image, which a batch\'s result does not carry', ['screenshot']],
];

const REFUSED = new Map<string, string>(REFUSALS.flatMap(([reason, tools]) => tools.map((tool) => [tool, reason] as const)));

/** What the rules need to know of a tool. */
export interface BatchCandidate {
  name: string;
  readOnly: boolean;
  longRunning: boolean;
}

/** Why `tool` cannot be a step of a batch, or undefined when it can (its arguments are checked by refusalOfArguments). */
export function refusalOf(tool: BatchCandidate): string | undefined {
  if (tool.name === 'batch') return 'a batch cannot run inside a batch; put its steps in this one';
  const known = REFUSED.get(tool.name);
  if (known) return known;
  if (tool.longRunning) return 'it is long-running, and a batch runs its steps at once on the main thread';
  if (tool.readOnly || (BATCH_EDITS as readonly string[]).includes(tool.name)) return undefined;
  return 'it is not one of the edits a batch can roll back';
}

/** Why these (valid) arguments make the step one a batch cannot roll back, or undefined. */
export function refusalOfArguments(tool: string, args: Record<string, unknown>): string | undefined {
  const target = args.target as { asset?: unknown } | undefined;
  if (tool === 'set_serialized_properties' && typeof target?.asset === 'string') {
    return 'written to an asset, its fields are saved to the asset\'s file, which undo does not take back; give a component in the scene, or call it outside the batch';
  }
  return undefined;
}

/** The rules in the batch's description, so that an agent knows them before it sends one. */
export const BATCH_RULES_TEXT =
  `Accepts read-only tools (except screenshot and list_packages) and the edits undo takes back whole: ${BATCH_EDITS.join(', ')} ` +
  '(set_serialized_properties on a component, not an asset). Refuses every other tool, and nested batches, before running anything: ' +
  'files (assets, scenes, prefabs, scripts), opening scenes or prefabs, compiling, play mode, packages, tests, builds, selection, the console, undo and redo cannot be rolled back. ' +
  `At most ${MAX_BATCH_STEPS} steps.`;
