/**
 * "The first ten minutes", `tether call`, `tether tools` and `--help` as a person meets them:
 * key=value arguments typed by the tool's schema, images written where asked (or beside the
 * person, never to a temporary folder left behind), tool descriptions, a progress line whose
 * clock ticks and which says what a queued call waits behind, and help with examples,
 * defaults and exit codes.
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PNG } from 'pngjs';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Run, type Workspace } from '../helpers/processes.js';
import { hasScript, needsScript, onTerminal, shellQuote, stopTerminals } from '../helpers/terminal.js';

afterEach(async () => {
  await stopTerminals();
  await cleanupProcesses();
});

/** TMPDIR inside the workspace, so that anything left there is seen (and removed with it). */
function env(workspace: Workspace): NodeJS.ProcessEnv {
  const tmp = join(dirname(workspace.home), 'tmp');
  mkdirSync(tmp, { recursive: true });
  return { ...workspace.env, TMPDIR: tmp };
}

function tether(workspace: Workspace, args: string[], cwd?: string): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, ...args], { env: env(workspace), ...(cwd ? { cwd } : {}) });
}

describe('tether call: key=value arguments', () => {
  it("types each value by the tool's schema: numbers, booleans, JSON arrays, text; --args still works and key=value adds to it", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const found = await tether(workspace, ['call', 'find_gameobjects', 'name=Player', 'limit=5', '--project', workspace.project, '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject({ structuredContent: { count: 1, objects: [{ name: 'Player' }] } });

    const modified = await tether(workspace, ['call', 'modify_gameobject', 'path=/Player', 'position=[0,1.5,0]', 'active=false', '--project', workspace.project, '--json']);
    expect(modified.code, modified.stderr).toBe(0);
    expect(JSON.parse(modified.stdout)).toMatchObject({ structuredContent: { modified: { position: [0, 1.5, 0], active: false } } });

    // "42" is a name (the schema says string), not the number 42; --args gives the rest.
    const created = await tether(workspace, ['call', 'create_gameobject', 'name=42', '--args', '{"primitive":"Cube","name":"overridden"}', '--project', workspace.project, '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ structuredContent: { created: { name: '42', path: '/42' } } });
    expect(executedTools(workspace)).toEqual(['find_gameobjects', 'modify_gameobject', 'create_gameobject']);
  });

  it('a word without "=" or a key given twice is a usage error (exit 2), a wrong type the tool\'s own (exit 1); nothing runs', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const bare = await tether(workspace, ['call', 'find_gameobjects', 'Player', '--project', workspace.project]);
    expect(bare.code).toBe(EXIT_CODES.usage);
    expect(bare.stderr).toContain('"Player" is not an argument: write key=value (e.g. name=Player), or pass JSON with --args.');
    const twice = await tether(workspace, ['call', 'find_gameobjects', 'limit=1', 'limit=2', '--project', workspace.project]);
    expect(twice.code).toBe(EXIT_CODES.usage);
    expect(twice.stderr).toContain('limit= is given twice.');
    const wrongType = await tether(workspace, ['call', 'find_gameobjects', 'limit=many', '--project', workspace.project]);
    expect(wrongType.code).toBe(EXIT_CODES.failed);
    expect(wrongType.stderr).toMatch(/"limit".*\[INVALID_ARGUMENTS\]/s);
    // Not a number as JSON writes one: text, which the tool refuses (Number() would have read 16).
    const hex = await tether(workspace, ['call', 'find_gameobjects', 'limit=0x10', '--project', workspace.project]);
    expect(hex.code).toBe(EXIT_CODES.failed);
    expect(hex.stderr).toMatch(/"limit" must be integer.*\[INVALID_ARGUMENTS\]\n`tether tools find_gameobjects` shows the arguments it takes\./s);
    expect(executedTools(workspace)).toEqual([]);
  });
});

describe('tether call: images', () => {
  it('--out FILE writes the image there; without it, a file named after the tool in the current folder; no temporary folder is left', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const here = join(dirname(workspace.home), 'here');
    mkdirSync(here);
    const out = join(here, 'shot.png');
    const written = await tether(workspace, ['call', 'screenshot', 'width=64', 'height=48', '--out', out, '--project', workspace.project]);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toContain(`[image/png image saved to ${out}]`);
    expect(PNG.sync.read(readFileSync(out)).width).toBe(64);

    const first = await tether(workspace, ['call', 'screenshot', 'width=32', 'height=16', '--project', workspace.project], here);
    const second = await tether(workspace, ['call', 'screenshot', 'width=32', 'height=16', '--project', workspace.project], here);
    expect([first.code, second.code]).toEqual([0, 0]);
    const names = readdirSync(here)
      .filter((name) => name !== 'shot.png')
      .sort();
    expect(names).toHaveLength(2); // the second call, in the same second, does not overwrite the first
    for (const name of names) expect(name).toMatch(/^screenshot-\d{8}-\d{6}(-2)?\.png$/);
    const printed = [first, second].map((run) => /\[image\/png image saved to (.+)\]/.exec(run.stdout)?.[1]);
    expect(printed.sort()).toEqual(names.map((name) => join(here, name)));
    expect(readdirSync(join(dirname(workspace.home), 'tmp'))).toEqual([]);

    // With --json the image stays in the JSON (base64), and is written only when --out asks.
    const json = await tether(workspace, ['call', 'screenshot', 'width=16', 'height=16', '--json', '--project', workspace.project], here);
    expect(json.code).toBe(0);
    expect(readdirSync(here)).toHaveLength(3);
  });
});

describe('tether tools', () => {
  it("prints each tool's description, wrapped, and each argument with its type, description and default", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const listed = await tether(workspace, ['tools', '--project', workspace.project]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(
      [
        'get_hierarchy  Get scene hierarchy',
        '  Returns the GameObject tree of the open scene: names, paths, active flags,',
        '  component types, and which GameObjects are part of a prefab instance.',
        '  --args \'{"root"?: string, "depth"?: integer}\'',
        '    root=   string   Path of the subtree to return, e.g. "/Environment".',
        '                     Default: the whole scene.',
        '    depth=  integer  How many levels to return.',
      ].join('\n'),
    );
    expect(listed.stdout).toContain('    limit=      integer  Default: 100.');
    expect(listed.stdout).toContain('    path=  string  Required.');
    // Wrapped at 80 columns, but for the --args line and an enum's list of names (or an array of them), which cannot be cut.
    for (const line of listed.stdout.split('\n').filter((l) => !l.startsWith('  --args') && !/^ {4}\w+= +\(?"/.test(l))) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('tether tools TOOL shows that one tool; an unknown name is UNKNOWN_TOOL with the closest names', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const one = await tether(workspace, ['tools', 'get_hierarchy', '--project', workspace.project]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout.startsWith('get_hierarchy  Get scene hierarchy\n')).toBe(true);
    expect(one.stdout).not.toContain('find_gameobjects');
    const json = await tether(workspace, ['tools', 'get_hierarchy', '--json', '--project', workspace.project]);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((tool) => tool.name)).toEqual(['get_hierarchy']);
    const unknown = await tether(workspace, ['tools', 'get_hierarchie', '--project', workspace.project]);
    expect(unknown.code).toBe(EXIT_CODES.failed);
    expect(unknown.stderr).toMatch(/Did you mean "get_hierarchy"\?.*\[UNKNOWN_TOOL\]/);
  });
});

describe('tether call: the progress line', () => {
  it.skipIf(!hasScript)(
    `says what a queued call waits behind, and its clock ticks every second between the editor's updates${needsScript}`,
    async () => {
      const workspace = createWorkspace();
      // A heartbeat every 5 s: without a clock of its own, the line would say "(0 s)" until then.
      await startSandbox(workspace, ['--build-seconds', '4']);
      new TetherProcess(['call', 'build_player', '--args', '{"target":"WebGL"}', '--project', workspace.project], env(workspace));
      await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toContain('build_player');
      const out = join(dirname(workspace.home), 'hierarchy.json');
      const terminal = onTerminal(
        ['call', 'get_hierarchy', '--args', '{"depth":1}', '--project', workspace.project],
        env(workspace),
        join(dirname(workspace.home), 'call.log'),
        `> ${shellQuote(out)}`,
      );
      expect(await terminal.exited).toBe(0);
      const shown = terminal.shown();
      expect(shown).toContain('\r\x1b[2Kqueued behind 1 call (build_player running) (1 s)');
      expect(shown).toContain('\r\x1b[2Kqueued behind 1 call (build_player running) (2 s)');
      expect(readFileSync(out, 'utf8')).toContain('"scene": "SampleScene"');
    },
    30_000,
  );
});

describe('--help', () => {
  it('every command shows examples and its exit codes, the numbers from the one list in src/cli/exit-codes.ts', async () => {
    const workspace = createWorkspace();
    const top = await tether(workspace, ['--help']);
    const commands = [...top.stdout.matchAll(/^ {2}(\w[\w-]*) /gm)].map((match) => match[1]!).filter((name) => name !== 'help');
    expect(commands).toEqual(expect.arrayContaining(['sandbox', 'start', 'mcp', 'serve', 'call', 'tools', 'hosts', 'conformance', 'setup']));
    for (const command of [[], ...commands.filter((name) => name !== 'setup').map((name) => [name]), ['setup', 'unity']]) {
      const help = await tether(workspace, [...command, '--help']);
      expect(help.code, command.join(' ')).toBe(0);
      expect(help.stdout, command.join(' ')).toMatch(/\nExamples:\n {2}\$ (tether|npm start) /);
      expect(help.stdout, command.join(' ')).toContain(`\nExit codes:\n   ${EXIT_CODES.ok}  `);
      expect(help.stdout, command.join(' ')).toContain(`  ${EXIT_CODES.usage}  `);
    }
    const call = await tether(workspace, ['call', '--help']);
    expect(call.stdout).toContain('$ tether call find_gameobjects name=Player limit=5');
    expect(call.stdout).toMatch(/--wait-ms <n> +how long to wait for an editor[^-]+\(default: 10000\)/);
    // As read, whatever the width it is wrapped to.
    const flat = call.stdout.replace(/\s+/g, ' ');
    expect(flat).toMatch(/--reload-wait-ms <n> how long, in all, to wait for an editor that is reloading its code domain .*?\(default: 60000; 0 after --wait-ms 0\)/);
    // With --json the image stays in the JSON unless --out names a file: the help says so.
    expect(flat).toContain('default: <tool>-<date>-<time>.png in the current folder, or with --json none: the JSON holds the image)');
    expect(flat).toContain(` ${EXIT_CODES.resultNotWritten} the call completed, but its result (or image) could not be written`);
    expect(call.stdout).toContain(`   ${EXIT_CODES.outcomeUnknown}  outcome unknown: the call may have taken effect`);
    expect(call.stdout).toContain(`  ${EXIT_CODES.unexpected}  unexpected error (a bug: please report it)`);
    const serve = await tether(workspace, ['serve', '--help']);
    expect(serve.stdout).toMatch(/--log-format <format>/);
    expect(serve.stdout).toMatch(/\(default: 7420\)/);
  });
});
