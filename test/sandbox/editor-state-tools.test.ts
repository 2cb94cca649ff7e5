/**
 * The editor tools: get_editor_state, get_selection and set_selection, play_mode's pause,
 * resume and step, and screenshot's views, through `tether call` and an MCP client: good
 * input, each kind of bad input, what survives a domain reload, and what is not an undo step.
 */
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { cleanupProcesses, runToExit, TETHER_BIN, type Workspace } from '../helpers/processes.js';
import { startToolSandbox, type ToolSession } from '../helpers/tool-session.js';

/** The Unity package's PlayModeRules.EnteringNote, word for word: entering answers before the reload, so before play mode is seen. */
const ENTERING_NOTE =
  "Unity answered as it left edit mode, before the domain reload that entering play mode makes: a compile error found on the way, or a project's script, can still keep it in edit mode. get_editor_state says playing once it plays.";

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const SAMPLE = 'Assets/Scenes/SampleScene.unity';

interface Selected {
  gameObjects: Array<{ path: string; scene: string }>;
  assets: string[];
  active?: string;
}

/** A screenshot through `tether call --json`: the PNG it returned and its text. */
async function shot(workspace: Workspace, args: Record<string, unknown>): Promise<{ png: PNG; text: string }> {
  const run = await runToExit(process.execPath, [TETHER_BIN, 'call', 'screenshot', '--project', workspace.project, '--args', JSON.stringify(args), '--json'], { env: workspace.env });
  expect(run.code, run.stderr).toBe(0);
  const content = (JSON.parse(run.stdout) as { content: Array<{ type: string; data?: string; text?: string }> }).content;
  return { png: PNG.sync.read(Buffer.from(content.find((c) => c.type === 'image')!.data!, 'base64')), text: content.find((c) => c.type === 'text')!.text! };
}

/** A screenshot through the MCP client: the PNG it returned. */
async function mcpShot(mcp: ToolSession, args: Record<string, unknown>): Promise<PNG> {
  const result = await mcp.client.callTool({ name: 'screenshot', arguments: args });
  const image = (result.content as Array<{ type: string; data?: string; mimeType?: string }>)[0]!;
  expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
  return PNG.sync.read(Buffer.from(image.data!, 'base64'));
}

describe('editor tools through tether call', () => {
  it("tells the editor's state: project, platform, play mode, the active scene, prefab mode", async () => {
    const { workspace, mcp } = await startToolSandbox();
    const state = await callOk<Record<string, unknown>>(workspace, 'get_editor_state');
    expect(state).toMatchObject({ editor: 'Tether Sandbox', projectPath: workspace.project, compiling: false, updating: false, playing: false, paused: false, focused: true, activeScene: SAMPLE });
    expect(state.platform).toMatch(/Editor$/);
    expect(state.prefabStage).toBeUndefined();
    expect(await callFails(workspace, 'get_editor_state', { verbose: true }, 'INVALID_ARGUMENTS')).toContain('verbose');

    await mcp.ok('create_prefab', { path: '/Player', assetPath: 'Assets/Player.prefab' });
    await mcp.ok('open_prefab', { assetPath: 'Assets/Player.prefab' });
    expect(await callOk(workspace, 'get_editor_state')).toMatchObject({ prefabStage: 'Assets/Player.prefab', activeScene: SAMPLE });
  });

  it('selects GameObjects and assets, follows renames and deletions, survives a domain reload, and is no undo step', async () => {
    const { workspace, mcp, sandbox } = await startToolSandbox();
    expect(await callOk(workspace, 'get_selection')).toEqual({ gameObjects: [], assets: [] });
    const selected = await callOk<Selected>(workspace, 'set_selection', { gameObjects: ['/Player', '/Environment/Crate', '/Player'], assets: ['Assets/Tests/tests.json', 'Assets/Scenes'] });
    expect(selected).toEqual({
      gameObjects: [
        { path: '/Player', scene: SAMPLE },
        { path: '/Environment/Crate', scene: SAMPLE },
      ],
      assets: ['Assets/Tests/tests.json', 'Assets/Scenes'],
      active: '/Player',
    });
    expect(await mcp.ok('undo')).toEqual({ performed: 0, names: [] });

    await mcp.ok('modify_gameobject', { path: '/Player', name: 'Hero' });
    await mcp.ok('delete_gameobject', { path: '/Environment/Crate' });
    await mcp.ok('compile_scripts');
    await sandbox.ready(2);
    expect(await callOk(workspace, 'get_selection')).toEqual({ gameObjects: [{ path: '/Hero', scene: SAMPLE }], assets: ['Assets/Tests/tests.json', 'Assets/Scenes'], active: '/Hero' });
    expect(await mcp.ok('set_selection', { assets: ['Assets/Scenes'] })).toEqual({ gameObjects: [], assets: ['Assets/Scenes'], active: 'Assets/Scenes' });
    expect(await mcp.ok('set_selection')).toEqual({ gameObjects: [], assets: [] });
  });

  it('refuses a selection naming what is not there or outside the project, and keeps the one it had', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('set_selection', { gameObjects: ['/Player'] });
    expect(await callFails(workspace, 'set_selection', { gameObjects: ['/Main Camera', '/Nobody'] }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await callFails(workspace, 'set_selection', { assets: ['Assets/Tests/test.json'] }, 'NOT_FOUND')).toContain('Did you mean "Assets/Tests/tests.json"');
    expect(await mcp.fails('set_selection', { assets: ['../outside.txt'] }, 'PATH_OUTSIDE_PROJECT')).toContain('outside the project');
    expect(await mcp.fails('set_selection', { assets: ['Library/Tether'] }, 'INVALID_ARGUMENTS')).toContain('not under Assets/');
    expect(await mcp.fails('set_selection', { gameObjects: '/Player' }, 'INVALID_ARGUMENTS')).toContain('gameObjects');
    expect(await mcp.ok('get_selection')).toEqual({ gameObjects: [{ path: '/Player', scene: SAMPLE }], assets: [], active: '/Player' });
  });

  it('pauses, steps and resumes play mode, each answered once done, and refuses them in edit mode', async () => {
    const { workspace, mcp } = await startToolSandbox();
    expect(await callFails(workspace, 'play_mode', { action: 'step' }, 'INVALID_ARGUMENTS')).toContain('Enter it first');
    expect(await mcp.fails('play_mode', { action: 'run' }, 'INVALID_ARGUMENTS')).toContain('action');
    expect(await mcp.ok('play_mode', { action: 'enter' })).toEqual({ playing: true, changed: true, domainReload: true, note: ENTERING_NOTE });

    const stepped = await callOk<{ frame: number }>(workspace, 'play_mode', { action: 'step' });
    expect(stepped).toMatchObject({ playing: true, paused: true, changed: true });
    expect(await callOk(workspace, 'play_mode', { action: 'step' })).toMatchObject({ paused: true, frame: stepped.frame + 1 });
    expect(await callOk(workspace, 'play_mode', { action: 'pause' })).toEqual({ playing: true, paused: true, changed: false, frame: stepped.frame + 1 });
    expect(await mcp.ok('get_editor_state')).toMatchObject({ playing: true, paused: true });
    expect(await callOk(workspace, 'play_mode', { action: 'resume' })).toMatchObject({ playing: true, paused: false, changed: true });
    expect(await mcp.ok('play_mode', { action: 'resume' })).toMatchObject({ paused: false, changed: false });
    expect(await mcp.ok('play_mode', { action: 'exit' })).toEqual({ playing: false, changed: true });
    expect(await mcp.ok('get_editor_state')).toMatchObject({ playing: false, paused: false });
  });

  it('renders the Scene view, the Game view and a given camera at the size asked, and refuses bad views', async () => {
    const { workspace, mcp } = await startToolSandbox();
    const scene = await shot(workspace, { width: 64, height: 48 });
    expect([scene.png.width, scene.png.height]).toEqual([64, 48]);
    expect(scene.text).toContain('top-down');
    const game = await shot(workspace, { view: 'game', width: 80, height: 60 });
    expect([game.png.width, game.png.height]).toEqual([80, 60]);
    expect(game.text).toContain('game view through "/Main Camera"');
    const camera = await shot(workspace, { view: 'camera', camera: '/Main Camera', width: 80, height: 60 });
    expect(camera.png.data.equals(game.png.data)).toBe(true);
    expect(await callFails(workspace, 'screenshot', { view: 'camera' }, 'INVALID_ARGUMENTS')).toContain('needs the camera');

    await mcp.ok('modify_gameobject', { path: '/Main Camera', rotation: [0, 180, 0] });
    expect((await mcpShot(mcp, { view: 'game', width: 80, height: 60 })).data.equals(game.png.data)).toBe(false);
    expect(await mcp.fails('screenshot', { view: 'game', camera: '/Main Camera' }, 'INVALID_ARGUMENTS')).toContain('only for view "camera"');
    expect(await mcp.fails('screenshot', { view: 'camera', camera: '/Player' }, 'INVALID_ARGUMENTS')).toContain('Cameras in the scene: /Main Camera');
    expect(await mcp.fails('screenshot', { view: 'camera', camera: '/Nobody' }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await mcp.fails('screenshot', { view: 'top' }, 'INVALID_ARGUMENTS')).toContain('view');
    expect(await mcp.fails('screenshot', { width: 8 }, 'INVALID_ARGUMENTS')).toContain('width');
    await mcp.ok('delete_gameobject', { path: '/Main Camera' });
    expect(await mcp.fails('screenshot', { view: 'game' }, 'TOOL_FAILED')).toContain('no active camera');
  });
});

describe('editor tools through an MCP client', () => {
  it('declare output schemas and true annotations, and answer with structured content and images', async () => {
    const { workspace, mcp } = await startToolSandbox();
    const { tools } = await mcp.client.listTools();
    for (const name of ['get_editor_state', 'get_selection', 'set_selection', 'play_mode']) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    expect(tools.find((t) => t.name === 'get_editor_state')?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === 'set_selection')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tools.find((t) => t.name === 'play_mode')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(tools.find((t) => t.name === 'screenshot')?.inputSchema.properties).toMatchObject({ view: { enum: ['scene', 'game', 'camera'], default: 'scene' } });

    expect(await mcp.ok('get_editor_state')).toMatchObject({ projectPath: workspace.project, activeScene: SAMPLE });
    expect(await mcp.ok('set_selection', { gameObjects: ['/Directional Light'] })).toMatchObject({ active: '/Directional Light' });
    expect((await mcpShot(mcp, { view: 'game', width: 32, height: 24 })).width).toBe(32);
  });
});
