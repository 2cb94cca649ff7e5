/**
 * `tether call` end to end: a real `tether call` child process per call, a real sandbox
 * editor, exit codes and streams as a script sees them, side effects counted on disk.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { freeze, thawAll } from '../helpers/freeze.js';
import { refuses } from '../helpers/port-probe.js';
import { TETHER_BIN, TetherProcess, buildLog, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Run, type SandboxProcess, type Workspace } from '../helpers/processes.js';
import { onTerminal, stopTerminals } from '../helpers/terminal.js';

afterEach(async () => {
  await stopTerminals();
  await cleanupProcesses();
});

/** The callIds the sandbox executed, in order (its Library/Tether/executions.jsonl). */
function executedCallIds(workspace: Workspace): string[] {
  return readFileSync(join(workspace.project, 'Library', 'Tether', 'executions.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { callId: string }).callId);
}

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

  it("stops writing quietly when its reader stops reading (| head), and exits with the call's outcome", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const child = spawn(process.execPath, [TETHER_BIN, 'call', 'screenshot', '--project', workspace.project, '--args', '{"width":4096,"height":4096}', '--json'], {
      env: callEnv(workspace),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout.once('data', () => child.stdout.destroy()); // as `head -c 10` does
    // 'close', not 'exit': an EPIPE message must have been read before we look for it.
    const [code] = (await once(child, 'close')) as [number | null];
    expect(stderr).not.toContain('EPIPE');
    expect(code, stderr).toBe(0);
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
    // With --json, a script reads the failure where it reads results.
    const json = await call(workspace, 'get_hierarchy', '--args', '{depth:1}', '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'INVALID_PARAMS', message: expect.stringContaining('--args is not valid JSON'), data: { field: '--args' } } });
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

  it('refuses a misspelled argument instead of ignoring it, suggesting the one meant, and executes nothing', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const misspelled = await call(workspace, 'modify_gameobject', '--args', '{"path":"/Player","postion":[1,2,3]}');
    expect(misspelled.code).toBe(1);
    expect(misspelled.stderr).toContain('"postion" is not an argument of this tool (did you mean "position"');
    expect(misspelled.stderr).toContain('[INVALID_ARGUMENTS]');
    expect(executedTools(workspace)).toEqual([]);
  });

  it("refuses to compile a project tool that takes the name of an editor tool, of Tether's, or of another project tool", async () => {
    const workspace = createWorkspace();
    // Compiled before such names were refused: the editor keeps its own tool.
    const compiledDir = join(workspace.project, 'Library', 'ScriptAssemblies');
    mkdirSync(compiledDir, { recursive: true });
    writeFileSync(join(compiledDir, 'tools.json'), JSON.stringify([{ name: 'get_hierarchy', description: 'old', inputSchema: { type: 'object' }, annotations: {}, reply: 'fake get_hierarchy' }]));
    await startSandbox(workspace);
    expect((await call(workspace, 'get_hierarchy')).stdout).toContain('"scene": "SampleScene"');
    const toolsDir = join(workspace.project, 'Assets', 'Editor', 'Tools');
    const tool = (file: string, name: string): void => writeFileSync(join(toolsDir, `${file}.tool.json`), JSON.stringify({ name, description: `The project's ${name}`, reply: `fake ${name}` }));
    tool('clash', 'get_hierarchy');
    tool('status', 'tether_status');
    tool('twin-a', 'twin');
    tool('twin-b', 'twin');
    // A compile that fails is a failed call (exit 1), whose result still says what failed.
    const compiled = await call(workspace, 'compile_scripts', '--json');
    expect(compiled.code, compiled.stderr).toBe(1);
    const { structuredContent, isError, content } = JSON.parse(compiled.stdout) as {
      structuredContent: { succeeded: boolean; errors: string[]; domainReload: boolean };
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    expect(isError).toBe(true);
    expect(content[0]?.text).toContain('Compilation failed with 3 error(s)');
    expect(structuredContent).toMatchObject({ succeeded: false, domainReload: false });
    expect(structuredContent.errors).toEqual([
      'Assets/Editor/Tools/clash.tool.json: name: "get_hierarchy" is already one of the editor\'s tools; choose another name.',
      'Assets/Editor/Tools/status.tool.json: name: names starting with "tether_" are reserved for Tether\'s own tools; choose another name.',
      'Assets/Editor/Tools/twin-b.tool.json: name: "twin" is already defined in Assets/Editor/Tools/twin-a.tool.json; choose another name.',
    ]);
    // The menu item that compiles fails the same way.
    const refreshed = await call(workspace, 'execute_menu_item', '--args', '{"menuPath":"Assets/Refresh"}', '--json');
    expect(refreshed.code, refreshed.stderr).toBe(1);
    expect(JSON.parse(refreshed.stdout)).toMatchObject({ isError: true, structuredContent: { menuPath: 'Assets/Refresh', result: { succeeded: false } } });
    // The editor's own tool still answers.
    const hierarchy = await call(workspace, 'get_hierarchy');
    expect(hierarchy.stdout).toContain('"scene": "SampleScene"');
  });

  it("refuses to compile a project tool whose input schema is not an object's or not valid, and starts with one compiled before that check", async () => {
    const workspace = createWorkspace();
    // Compiled by an earlier version: a schema that does not compile once made the editor fail at every start.
    const compiledDir = join(workspace.project, 'Library', 'ScriptAssemblies');
    mkdirSync(compiledDir, { recursive: true });
    const broken = { type: 'object', properties: { n: { type: 'integr' } } };
    writeFileSync(join(compiledDir, 'tools.json'), JSON.stringify([{ name: 'broken', description: 'old', inputSchema: broken, annotations: {}, reply: 'never' }]));
    await startSandbox(workspace);
    const listed = await runToExit(process.execPath, [TETHER_BIN, 'tools', '--project', workspace.project, '--json'], { env: callEnv(workspace) });
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain('get_hierarchy');
    expect(names).not.toContain('broken');

    const toolsDir = join(workspace.project, 'Assets', 'Editor', 'Tools');
    const tool = (file: string, inputSchema: unknown): void => writeFileSync(join(toolsDir, `${file}.tool.json`), JSON.stringify({ name: file, description: file, inputSchema, reply: 'ok' }));
    tool('shout', { type: 'string' });
    tool('typo', broken);
    tool('fine', { type: 'object', properties: { n: { type: 'integer' } } });
    const compiled = await call(workspace, 'compile_scripts', '--json');
    expect(compiled.code, compiled.stderr).toBe(1);
    expect((JSON.parse(compiled.stdout) as { structuredContent: { errors: string[] } }).structuredContent.errors).toEqual([
      'Assets/Editor/Tools/shout.tool.json: inputSchema: must be an object\'s schema ("type": "object"), as MCP requires of a tool\'s input.',
      expect.stringMatching(/^Assets\/Editor\/Tools\/typo\.tool\.json: inputSchema: not a valid JSON Schema: .*properties\/n\/type must be equal to one of the allowed values/),
    ]);
  });

  it("lists the editor's tools with the arguments each takes (tether tools), and points there from a wrong name", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const listed = await runToExit(process.execPath, [TETHER_BIN, 'tools', '--project', workspace.project], { env: callEnv(workspace) });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('get_hierarchy  Get scene hierarchy\n');
    expect(listed.stdout).toContain('\n  --args \'{"root"?: string, "depth"?: integer}\'\n');
    expect(listed.stdout).toContain('"types"?: ("log" | "warning" | "error")[]');
    expect(listed.stdout).toContain('"action": "enter" | "exit"');
    const json = await runToExit(process.execPath, [TETHER_BIN, 'tools', '--project', workspace.project, '--json'], { env: callEnv(workspace) });
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toContain('build_player');
    const unknown = await call(workspace, 'get_hierarchie');
    expect(unknown.stderr).toContain('`tether tools` lists the tools and the arguments each takes.');
    expect(executedTools(workspace)).toEqual([]);
    // A failure, with --json, is JSON on stdout too, as tether call --json writes it.
    const nowhere = await runToExit(process.execPath, [TETHER_BIN, 'tools', '--project', join(workspace.home, 'no-such-project'), '--wait-ms', '0', '--json'], { env: callEnv(workspace) });
    expect(nowhere.code).toBe(1);
    expect(JSON.parse(nowhere.stdout)).toMatchObject({ error: { code: 'HOST_NOT_FOUND', message: expect.stringContaining('no-such-project') } });
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
    const result = await runToExit(process.execPath, [TETHER_BIN, 'call', 'screenshot', '--project', workspace.project, '--args', '{"width":64,"height":48}'], {
      env: callEnv(workspace),
      cwd: dirname(workspace.home),
    });
    expect(result.code, result.stderr).toBe(0);
    const saved = /\[image\/png image saved to (.+\.png)\]/.exec(result.stdout);
    expect(saved, result.stdout).not.toBeNull();
    const path = saved![1]!;
    // In the current folder, named after the tool (test/cli/terminal-call.test.ts has the rest).
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

  it.skipIf(!hasScript)(`says on a terminal why it waits for an editor that is reloading, then calls it once it is back${hasScript ? '' : ' (skipped: needs util-linux `script`)'}`, async () => {
    const workspace = createWorkspace();
    const { sandbox } = await reloading(workspace);
    const out = join(dirname(workspace.home), 'hierarchy.out');
    const terminal = join(dirname(workspace.home), 'terminal.log');
    const command = [process.execPath, TETHER_BIN, 'call', 'get_hierarchy', '--project', workspace.project, '--wait-ms', '20000', '--reload-wait-ms', '20000'].map(shellQuote).join(' ');
    // -f: the terminal's output reaches the log as it is written, so the test can wait for the line.
    const run = runToExit('script', ['-qfec', `${command} > ${shellQuote(out)}`, terminal], { env: callEnv(workspace), timeoutMs: 30_000 });
    const told = (): string => (existsSync(terminal) ? readFileSync(terminal, 'utf8') : '');
    await expect.poll(told, { timeout: 10_000 }).toContain(`tether: waiting up to 20 s for the editor: The editor (process ${sandbox.pid}) is reloading its code domain`);
    const result = await run;
    expect(result.code, told()).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('"scene": "SampleScene"');
    expect(told().match(/waiting up to/g)).toHaveLength(1);
  });

  it('tells a script only the error when the editor did not come back within --wait-ms, not why it waited', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await reloading(workspace);
    // No longer for its reload either (--reload-wait-ms, 60 s by default, goes on while the editor's process runs).
    const result = await call(workspace, 'get_hierarchy', '--wait-ms', '1500', '--reload-wait-ms', '1500');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^tether: The editor is not reachable after waiting 1500 ms: The editor \\(process ${sandbox.pid}\\) is reloading its code domain.*\\[HOST_UNAVAILABLE\\]\n$`, 's'),
    );
    expect(result.stdout).toBe('');
  });
});

/** A sandbox in the middle of a domain reload of 5 s (compile_scripts ends with one): its record stays, its port refuses. */
async function reloading(workspace: Workspace): Promise<{ sandbox: SandboxProcess }> {
  const { sandbox, ready } = await startSandbox(workspace, ['--reload-ms', '5000']);
  new TetherProcess(['call', 'compile_scripts', '--project', workspace.project], callEnv(workspace));
  await expect.poll(() => refuses(ready.port), { timeout: 10_000, interval: 50 }).toBe(true);
  return { sandbox };
}

/** A `tether call build_player` as a terminal user runs it, once the editor has started the build. */
async function buildStarted(workspace: Workspace, ...extra: string[]): Promise<TetherProcess> {
  const caller = new TetherProcess(['call', 'build_player', '--project', workspace.project, '--args', '{"target":"WebGL"}', ...extra], callEnv(workspace));
  await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toContain('build_player');
  return caller;
}

afterEach(thawAll);

describe('tether call: cancels and unknown outcomes', () => {
  // SIGTERM is what `timeout` and a CI job's cancel send, SIGHUP a terminal that closed.
  it.each([
    ['SIGINT', 'Interrupted from the terminal.'],
    ['SIGTERM', 'Stopped by SIGTERM.'],
    ['SIGHUP', 'Stopped by SIGHUP.'],
  ] as const)('%s: the editor stops the build and says so; exit 1 with CANCELLED', async (signal, reason) => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '20']);
    const caller = await buildStarted(workspace);
    caller.child.kill(signal);
    expect(await caller.exited).toBe(1);
    expect(caller.stderr).toContain('asking the editor to stop the call');
    // The editor's own answer ("while running"), not the caller giving up ("by the client").
    expect(caller.stderr).toContain(`was cancelled while running: ${reason} [CANCELLED]`);
    expect(buildLog(workspace).map((b) => b.status)).toEqual(['cancelled']);
  });

  it('a second Ctrl-C stops waiting for the editor to confirm the stop: exit 3, OUTCOME_UNKNOWN', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--build-seconds', '20']);
    const caller = await buildStarted(workspace, '--cancel-wait-ms', '60000', '--json');
    freeze(sandbox);
    caller.child.kill('SIGINT');
    await caller.waitForStderrLine((line) => line.includes('asking the editor to stop the call'));
    caller.child.kill('SIGINT');
    expect(await caller.exited).toBe(3);
    expect(caller.stderr).toMatch(/"build_player" may still finish, so its outcome is unknown.*\[OUTCOME_UNKNOWN\]/);
    // A script reading --json gets the same failure on stdout, naming the call the editor has.
    const [callId] = executedCallIds(workspace);
    expect(JSON.parse(caller.lines.join('\n'))).toMatchObject({
      error: { code: 'OUTCOME_UNKNOWN', message: expect.stringContaining(`Check call ${callId} with \`tether status\`.`), data: { tool: 'build_player', callId } },
    });
    // And a person reads the callId, to look the call up.
    expect(caller.stderr).toContain(`Check call ${callId} with \`tether status\`. [OUTCOME_UNKNOWN]`);
  });

  it.skipIf(!hasScript)(
    `Ctrl-C before the call was sent says that nothing was sent: exit 1, CANCELLED with started: false${hasScript ? '' : ' (skipped: needs util-linux `script`)'}`,
    async () => {
      const workspace = createWorkspace();
      await reloading(workspace);
      const out = join(dirname(workspace.home), 'call.out');
      const log = join(dirname(workspace.home), 'call.log');
      // The editor is away for its reload, so the call waits for it, unsent; on a terminal it says so.
      const terminal = onTerminal(['call', 'create_gameobject', 'name=Never', '--project', workspace.project, '--json'], callEnv(workspace), log, `> ${shellQuote(out)}`);
      await expect.poll(terminal.shown, { timeout: 10_000 }).toContain('tether: waiting up to');
      terminal.type('\x03');
      expect(await terminal.exited).toBe(1);
      expect(terminal.shown()).toContain('tether: stopping: "create_gameobject" has not been sent to the editor, and will not be.');
      expect(terminal.shown()).not.toContain('asking the editor to stop the call');
      expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
        error: {
          code: 'CANCELLED',
          message: '"create_gameobject" was not sent to the editor (interrupted from the terminal), so it did not run.',
          data: { tool: 'create_gameobject', callId: expect.any(String), started: false },
        },
      });
      expect(executedTools(workspace)).not.toContain('create_gameobject');
    },
    30_000,
  );

  it('the editor freezes mid-build past --wait-ms: exit 3, OUTCOME_UNKNOWN, and the build, once thawed, runs to its end once', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--build-seconds', '3']);
    const caller = await buildStarted(workspace, '--wait-ms', '500');
    const thaw = freeze(sandbox);
    expect(await caller.exited).toBe(3);
    expect(caller.stderr).toMatch(/whether the call ran, or will still run once the editor is back, is unknown.*\[OUTCOME_UNKNOWN\]/);
    thaw();
    await expect.poll(() => buildLog(workspace).map((b) => b.status), { timeout: 15_000 }).toEqual(['succeeded']);
    expect(executedTools(workspace)).toEqual(['build_player']);
  });

  it('Ctrl-C while the editor is frozen: the stop cannot be confirmed, so exit 3, never "cancelled"', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--build-seconds', '3']);
    const caller = await buildStarted(workspace, '--cancel-wait-ms', '300');
    freeze(sandbox);
    caller.child.kill('SIGINT');
    expect(await caller.exited).toBe(3);
    expect(caller.stderr).toMatch(/has not confirmed that it did: the call may still finish.*\[OUTCOME_UNKNOWN\]/);
  });
});
