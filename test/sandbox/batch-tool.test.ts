/**
 * batch through `tether call` and an MCP client: several steps as one undo step (one undo
 * takes them all back), a failure in the middle that rolls the earlier steps back and names
 * the step, arguments checked for every step before the first runs, "did you mean" for a
 * wrong tool name, and the tools a batch refuses. Plus the rules themselves, against the
 * editor's tool set: every tool a batch accepts is read-only or an edit undo takes back whole.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TetherError } from '../../src/protocol/index.js';
import { batchTool } from '../../src/sandbox/tools/batch-tool.js';
import { BATCH_EDITS, BATCH_RULES_TEXT, refusalOf } from '../../src/sandbox/tools/batch-rules.js';
import { editorToolSet } from '../../src/sandbox/tools/editor-tool-set.js';
import type { MainThreadContext, SandboxTool } from '../../src/sandbox/tools/tool.js';
import { UndoHistory } from '../../src/sandbox/undo.js';
import { textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import type { Workspace } from '../helpers/processes.js';
import { sharedSandbox } from '../helpers/tool-session.js';

interface BatchResult {
  steps: Array<{ index: number; tool: string; result: Record<string, unknown> }>;
  undoGroup: string;
}

interface Hierarchy {
  objects: Array<{ name: string; path: string; components: string[]; children?: Hierarchy['objects'] }>;
}

/** Every GameObject path in the active scene. */
async function paths(workspace: Workspace): Promise<string[]> {
  const { objects } = await callOk<Hierarchy>(workspace, 'get_hierarchy');
  const all: string[] = [];
  const walk = (list: Hierarchy['objects']): void => list.forEach((o) => (all.push(o.path), walk(o.children ?? [])));
  walk(objects);
  return all;
}

describe('the batch rules', () => {
  it('accept only read-only tools and the listed edits, never a long-running tool, and the description says so', () => {
    const names = editorToolSet.map((tool) => tool.name);
    for (const edit of BATCH_EDITS) expect(names, edit).toContain(edit);
    for (const tool of editorToolSet) {
      const refusal = refusalOf({ name: tool.name, readOnly: tool.annotations.readOnlyHint === true, longRunning: tool.execution?.longRunning === true });
      if (refusal === undefined) expect(tool.annotations.readOnlyHint === true || (BATCH_EDITS as readonly string[]).includes(tool.name), tool.name).toBe(true);
      if (tool.execution?.longRunning) expect(refusal, tool.name).toBeDefined();
    }
    const batch = editorToolSet.find((tool) => tool.name === 'batch');
    expect(batch?.description.endsWith(BATCH_RULES_TEXT)).toBe(true);
    expect(batch?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(refusalOf({ name: 'make_terrain', readOnly: false, longRunning: false })).toContain('not one of the edits');
  });
});

describe('a batch whose rollback fails', () => {
  // In process: a real batch over two stand-in tools, and an undo target that cannot restore.
  const stepTool = (name: string, run: () => unknown): SandboxTool => ({
    name,
    description: name,
    input: z.object({}),
    annotations: { readOnlyHint: false },
    run: () => run() as Record<string, unknown>,
  });
  let state = 0;
  const tools = [
    stepTool('create_gameobject', () => ({ created: ++state })),
    stepTool('add_component', () => {
      throw new TetherError('NOT_FOUND', 'No GameObject at "/Nobody".', { path: '/Nobody' });
    }),
  ];
  const context = (cancelled: () => boolean): MainThreadContext =>
    ({
      undo: new UndoHistory({
        capture: () => state,
        restore: () => {
          throw new Error('disk full');
        },
      }),
      cancelled,
      progress: () => undefined,
    }) as unknown as MainThreadContext;
  const thrownBy = (run: () => unknown): TetherError => {
    try {
      run();
    } catch (error) {
      return error as TetherError;
    }
    throw new Error('the batch did not fail');
  };
  const steps = [
    { tool: 'create_gameobject', arguments: {} },
    { tool: 'add_component', arguments: {} },
  ];

  it("keeps the step's error and says the rollback's apart, claiming no rollback", () => {
    const error = thrownBy(() =>
      batchTool(() => tools).run(
        { steps },
        context(() => false),
      ),
    );
    expect(error).toBeInstanceOf(TetherError);
    expect(error.code).toBe('NOT_FOUND');
    expect(error.message).toContain('steps[1] (add_component) failed: No GameObject at "/Nobody".');
    expect(error.message).toContain('Rolling back the batch failed too (disk full): the edits of the steps before it may remain.');
    expect(error.data).toMatchObject({ failedStep: { index: 1, code: 'NOT_FOUND' }, completed: [{ index: 0, tool: 'create_gameobject' }], rolledBack: false, rollbackError: 'disk full' });
  });

  it('says so after a cancellation too', () => {
    let asked = 0;
    const error = thrownBy(() =>
      batchTool(() => tools).run(
        { steps },
        context(() => ++asked > 1),
      ),
    );
    expect(error.code).toBe('CANCELLED');
    expect(error.data).toMatchObject({ started: true, rolledBack: false, rollbackError: 'disk full' });
  });
});

describe('batch through tether call', () => {
  const { workspace } = sharedSandbox({ mcp: false });

  it('runs several steps as one undo step: one undo takes them all back, one redo brings them back', async () => {
    const result = await callOk<BatchResult>(workspace, 'batch', {
      steps: [
        { tool: 'create_gameobject', arguments: { name: 'Enemy', parent: '/Environment', position: [1, 0, 2] } },
        { tool: 'add_component', arguments: { path: '/Environment/Enemy', type: 'Rigidbody' } },
        { tool: 'set_serialized_properties', arguments: { target: { gameObject: '/Environment/Enemy', component: 'Rigidbody' }, properties: [{ path: 'm_Mass', value: 5 }] } },
        { tool: 'find_gameobjects', arguments: { component: 'Rigidbody' } },
        { tool: 'duplicate_gameobject', arguments: { path: '/Environment/Enemy' } },
        { tool: 'read_console' },
      ],
    });
    expect(result.steps.map((s) => [s.index, s.tool])).toEqual([
      [0, 'create_gameobject'],
      [1, 'add_component'],
      [2, 'set_serialized_properties'],
      [3, 'find_gameobjects'],
      [4, 'duplicate_gameobject'],
      [5, 'read_console'],
    ]);
    expect(result.steps[2]?.result).toMatchObject({ type: 'Rigidbody', properties: [{ path: 'm_Mass', previous: 1, value: 5 }] });
    expect(JSON.stringify(result.steps[3]?.result)).toContain('/Environment/Enemy');
    expect(result.undoGroup).toBe('Batch: create_gameobject, add_component, set_serialized_properties, …');
    expect(await paths(workspace)).toEqual(expect.arrayContaining(['/Environment/Enemy', '/Environment/Enemy (1)']));

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: [result.undoGroup] });
    const undone = await paths(workspace);
    expect(undone.filter((p) => p.includes('Enemy'))).toEqual([]);
    expect(undone).toContain('/Player');

    expect(await callOk(workspace, 'redo')).toEqual({ performed: 1, names: [result.undoGroup] });
    expect(await callOk(workspace, 'get_serialized_properties', { target: { gameObject: '/Environment/Enemy (1)', component: 'Rigidbody' }, path: 'm_Mass' })).toMatchObject({
      properties: [{ path: 'm_Mass', value: 5 }],
    });
    // Named by the caller, a batch of read-only steps alone makes no undo step at all.
    expect(await callOk(workspace, 'batch', { steps: [{ tool: 'get_active_scene' }], name: 'Look around' })).toMatchObject({ undoGroup: 'Look around' });
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: [result.undoGroup] });
  });

  it('rolls back the steps before one that fails, names it, and leaves the undo history as it was', async () => {
    await callOk(workspace, 'create_gameobject', { name: 'Before' });
    const error = await callFails(
      workspace,
      'batch',
      {
        steps: [
          { tool: 'create_gameobject', arguments: { name: 'Doomed' } },
          { tool: 'modify_gameobject', arguments: { path: '/Player', name: 'Hero', position: [9, 9, 9] } },
          { tool: 'delete_gameobject', arguments: { path: '/Nobody' } },
          { tool: 'create_gameobject', arguments: { name: 'Never' } },
        ],
      },
      'NOT_FOUND',
    );
    expect(error).toContain('steps[2] (delete_gameobject) failed');
    expect(error).toContain('the edits of the 2 steps before it were rolled back');
    const after = await paths(workspace);
    expect(after).toContain('/Player');
    expect(after).toContain('/Before');
    expect(after.filter((p) => /Doomed|Hero|Never/.test(p))).toEqual([]);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Create Before'] });
  });

  it("checks every step before the first runs: a later step's arguments, an unknown tool, a refused tool", async () => {
    const badArguments = await callFails(
      workspace,
      'batch',
      { steps: [{ tool: 'create_gameobject', arguments: { name: 'Early' } }, { tool: 'get_hierarchy' }, { tool: 'create_gameobject', arguments: { name: 'a/b' } }] },
      'INVALID_ARGUMENTS',
    );
    expect(badArguments).toContain('"steps.2.arguments.name"');
    expect(badArguments).toContain('No step ran');
    const unknown = await callFails(
      workspace,
      'batch',
      {
        steps: [
          { tool: 'create_gameobject', arguments: { name: 'Early' } },
          { tool: 'creat_gameobject', arguments: { name: 'X' } },
        ],
      },
      'INVALID_ARGUMENTS',
    );
    expect(unknown).toContain('"steps.1.tool" names no tool of this editor: "creat_gameobject" (did you mean "create_gameobject"');
    const refused = await callFails(
      workspace,
      'batch',
      {
        steps: [
          { tool: 'create_gameobject', arguments: { name: 'Early' } },
          { tool: 'build_player', arguments: {} },
        ],
      },
      'INVALID_ARGUMENTS',
    );
    expect(refused).toContain('is build_player, which a batch does not run');
    expect(await paths(workspace)).not.toContain('/Early');
  });
});

describe('batch through an MCP client', () => {
  const { mcp } = sharedSandbox();

  it('is listed with cautious annotations and an output schema', async () => {
    const { tools } = await mcp.client.listTools();
    const batch = tools.find((tool) => tool.name === 'batch');
    expect(batch?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(batch?.outputSchema?.required).toEqual(['steps', 'undoGroup']);
  });

  it("says in the error's data which step failed, how, and what the steps before it returned", async () => {
    const result = await mcp.client.callTool({
      name: 'batch',
      arguments: {
        steps: [
          { tool: 'create_gameobject', arguments: { name: 'Wall' } },
          { tool: 'add_component', arguments: { path: '/Wall', type: 'Rigidbdy' } },
        ],
      },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('steps[1] (add_component) failed: ');
    expect(textOf(result)).toContain('Did you mean "Rigidbody"');
    const { code, data } = (result._meta as Record<string, { code: string; data: Record<string, unknown> }>)['tether/error'] as { code: string; data: Record<string, unknown> };
    expect(code).toBe('INVALID_ARGUMENTS');
    expect(data.failedStep).toMatchObject({ index: 1, tool: 'add_component', code: 'INVALID_ARGUMENTS', data: { field: 'type', suggestions: expect.arrayContaining(['Rigidbody']) } });
    expect(data.completed).toEqual([{ index: 0, tool: 'create_gameobject', result: expect.objectContaining({}) }]);
    expect(data.rolledBack).toBe(true);
    expect((await mcp.ok<{ objects: unknown[] }>('find_gameobjects', { name: 'Wall' })).objects).toEqual([]);
    expect(await mcp.ok('undo')).toEqual({ performed: 0, names: [] });
  });

  it('refuses nested batches, file operations, undo, selection, writes to assets, and too many or no steps', async () => {
    const refused = async (step: Record<string, unknown>, because: string): Promise<void> => {
      expect(await mcp.fails('batch', { steps: [{ tool: 'get_hierarchy' }, step] }, 'INVALID_ARGUMENTS')).toContain(because);
    };
    await refused({ tool: 'batch', arguments: { steps: [{ tool: 'get_hierarchy' }] } }, 'a batch cannot run inside a batch');
    await refused({ tool: 'delete_asset', arguments: { path: 'Assets/Scenes' } }, 'writes, moves or deletes files');
    await refused({ tool: 'compile_scripts' }, 'compiles, reloads the domain');
    await refused({ tool: 'undo' }, 'undo history');
    await refused({ tool: 'set_selection', arguments: { gameObjects: ['/Player'] } }, 'undo does not record');
    await refused({ tool: 'screenshot' }, 'image');
    await refused(
      { tool: 'set_serialized_properties', arguments: { target: { asset: 'Assets/Data/Goblin.asset' }, properties: [{ path: 'hp', value: 1 }] } },
      '"steps.1.arguments" makes set_serialized_properties a step a batch cannot roll back',
    );
    const many = Array.from({ length: 51 }, () => ({ tool: 'get_hierarchy' }));
    expect(await mcp.fails('batch', { steps: many }, 'INVALID_ARGUMENTS')).toContain('steps');
    expect(await mcp.fails('batch', { steps: [] }, 'INVALID_ARGUMENTS')).toContain('steps');
    expect(await mcp.fails('batch', { steps: [{ tool: 'get_hierarchy', args: {} }] }, 'INVALID_ARGUMENTS')).toContain('args');
  });
});
