/**
 * `tether call` end to end: a real `tether call` child process per call, a real sandbox
 * editor, exit codes and streams as a script sees them, side effects counted on disk.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Run, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

/** Temporary files of the call (saved images) go into the workspace, which the cleanup removes. */
function callEnv(workspace: Workspace): NodeJS.ProcessEnv {
  return { ...workspace.env, TMPDIR: dirname(workspace.home) };
}

function call(workspace: Workspace, tool: string, ...extra: string[]): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, 'call', tool, '--project', workspace.project, ...extra], { env: callEnv(workspace) });
}


// eslint-disable-next-line no-control-regex
const ESCAPES = /[\x1b\r]/;

/** util-linux `script` runs a command on a pseudo-terminal: the TTY counterpart of runToExit(). */
const hasScript = process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

describe('tether call', () => {
  it('prints a text result and exits 0', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const result = await call(workspace, 'get_hierarchy', '--args', '{"depth":1}');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"scene": "SampleScene"');
    expect(result.stdout).toContain('"path": "/Player"');
    expect(result.stderr).toBe('');
    expect(executedTools(workspace)).toEqual(['get_hierarchy']);
  });

  it('prints the whole result as JSON with --json', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const result = await call(workspace, 'find_gameobjects', '--args', '{"name":"player"}', '--json');
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { content: Array<{ type: string; text: string }>; structuredContent: unknown; isError?: boolean };
    expect(parsed.isError).toBeFalsy();
    expect(parsed.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('"Player"') });
    expect(parsed.structuredContent).toMatchObject({ count: 1, objects: [{ name: 'Player', path: '/Player' }] });
  });

  it('exits 2 with an example when --args is not a JSON object', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const broken = await call(workspace, 'get_hierarchy', '--args', '{depth:1}');
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/--args is not valid JSON.*Example: --args '\{"name":"Cube"\}'/);
    expect(broken.stdout).toBe('');
    const array = await call(workspace, 'get_hierarchy', '--args', '[1]');
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('--args must be a JSON object');
    expect(executedTools(workspace)).toEqual([]);
  });

  it('exits 1 naming the invalid field, and executes nothing', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const invalid = await call(workspace, 'create_gameobject', '--args', '{"name":42}');
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('"name"');
    expect(invalid.stderr).toContain('[INVALID_ARGUMENTS]');
    expect(invalid.stdout).toBe('');
    // A valid call afterwards is journaled: the journal works, and the invalid call is not in it.
    expect((await call(workspace, 'get_hierarchy')).code).toBe(0);
    expect(executedTools(workspace)).toEqual(['get_hierarchy']);
  });

  it('exits 1 suggesting the closest name for an unknown tool', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const unknown = await call(workspace, 'get_hierarchie');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Did you mean "get_hierarchy"?');
    expect(unknown.stderr).toContain('[UNKNOWN_TOOL]');

    const json = await call(workspace, 'get_hierarchie', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'UNKNOWN_TOOL', data: { suggestions: ['get_hierarchy'] } } });
    expect(executedTools(workspace)).toEqual([]);
  });

  it('exits 1 saying no editor is running and how to start one', async () => {
    const workspace = createWorkspace();
    const started = Date.now();
    const result = await call(workspace, 'get_hierarchy', '--wait-ms', '300');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/No editor is running/);
    expect(result.stderr).toContain(`tether sandbox --project ${workspace.project}`);
    expect(result.stdout).toBe('');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('saves a screenshot as a PNG file and prints its path', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const result = await call(workspace, 'screenshot', '--args', '{"width":64,"height":48}');
    expect(result.code, result.stderr).toBe(0);
    const saved = /\[image\/png image saved to (.+\.png)\]/.exec(result.stdout);
    expect(saved, result.stdout).not.toBeNull();
    const path = saved![1]!;
    expect(dirname(path)).toBe(dirname(workspace.home));
    const png = PNG.sync.read(readFileSync(path));
    expect([png.width, png.height]).toEqual([64, 48]);
  });

  it('draws no progress line when stderr is not a terminal', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const result = await call(workspace, 'build_player', '--args', '{"target":"WebGL"}');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'succeeded' });
    expect(result.stderr).not.toMatch(ESCAPES);
  });

  // The control for the test above: the same call on a pseudo-terminal does draw progress.
  it.skipIf(!hasScript)(`draws and clears a progress line on a terminal${hasScript ? '' : ' (skipped: needs util-linux `script`)'}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const out = join(dirname(workspace.home), 'build.out');
    const command = [process.execPath, TETHER_BIN, 'call', 'build_player', '--project', workspace.project, '--args', '{"target":"WebGL"}'].map(shellQuote).join(' ');
    // Only stderr reaches the terminal; stdout goes to a file.
    const result = await runToExit('script', ['-qec', `${command} > ${shellQuote(out)}`, '/dev/null'], { env: callEnv(workspace) });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('\r\x1b[2K[');
    expect(result.stdout).toMatch(/\[#*\.*\] \d+% /);
    expect(result.stdout.endsWith('\r\x1b[2K')).toBe(true);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({ status: 'succeeded' });
  });
});
