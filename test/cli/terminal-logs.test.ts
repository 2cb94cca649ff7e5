/**
 * "The first ten minutes": what `tether sandbox`, `tether serve` and `npm start` (tether start)
 * show a person in a terminal. Readable lines on a terminal; JSON lines when asked
 * (--log-format json, TETHER_LOG_FORMAT) or when the output is not a terminal, which is what
 * scripts and the other tests read (`{"event":"ready",…}` on the sandbox's stdout).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';
import { needsScript, hasScript, onTerminal, shellOnTerminal, shellQuote, stopTerminals, tetherCommand } from '../helpers/terminal.js';

afterEach(async () => {
  await stopTerminals();
  await cleanupProcesses();
});

const terminalLog = (workspace: Workspace, name: string): string => join(dirname(workspace.home), name);
const JSON_LOG_LINE = /^\{"level":/;

describe('log lines in a terminal', () => {
  it.skipIf(!hasScript)(`tether sandbox on a terminal: readable log and ready lines, no JSON${needsScript}`, async () => {
    const workspace = createWorkspace();
    const terminal = onTerminal(['sandbox', '--project', workspace.project, '--log-level', 'info'], workspace.env, terminalLog(workspace, 'sandbox.log'));
    await expect.poll(terminal.shown, { timeout: 15_000 }).toContain(`Sandbox editor ready on 127.0.0.1:`);
    const lines = terminal.lines();
    expect(
      lines.some((line) => /^\d\d:\d\d:\d\d INFO {2}sandbox: sandbox editor ready {2}port=\d+ generation=1 tools=\d+$/.test(line)),
      lines.join('\n'),
    ).toBe(true);
    expect(lines.filter((line) => JSON_LOG_LINE.test(line) || line.startsWith('{"event"'))).toEqual([]);
  });

  it.skipIf(!hasScript)(`--log-format json on a terminal: JSON log lines and JSON ready lines, as before${needsScript}`, async () => {
    const workspace = createWorkspace();
    const terminal = onTerminal(['sandbox', '--project', workspace.project, '--log-level', 'info', '--log-format', 'json'], workspace.env, terminalLog(workspace, 'sandbox.log'));
    await expect.poll(terminal.shown, { timeout: 15_000 }).toContain('"event":"ready"');
    const lines = terminal.lines();
    expect(lines.some((line) => JSON_LOG_LINE.test(line) && line.includes('"msg":"sandbox editor ready"'))).toBe(true);
    expect(lines.some((line) => line.startsWith('Sandbox editor ready'))).toBe(false);
  });

  it('not on a terminal: JSON, unless TETHER_LOG_FORMAT=pretty asks for readable lines; a format it does not know is a usage error', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--log-level', 'info']); // waits for the JSON ready line on stdout
    await sandbox.waitForStderrLine((line) => JSON_LOG_LINE.test(line) && line.includes('sandbox editor ready'));
    await sandbox.stop();

    const pretty = new TetherProcess(['sandbox', '--project', workspace.project, '--log-level', 'info'], { ...workspace.env, TETHER_LOG_FORMAT: 'pretty' });
    await pretty.waitForLine((line) => line.startsWith(`Sandbox editor ready on 127.0.0.1:`));
    await pretty.waitForStderrLine((line) => / INFO {2}sandbox: sandbox editor ready {2}port=/.test(line));
    expect(pretty.stderrLines.filter((line) => JSON_LOG_LINE.test(line))).toEqual([]);
    await pretty.stop();
    // The log file keeps JSON whatever the terminal gets.
    const logged = readFileSync(join(workspace.home, 'logs', 'sandbox.log'), 'utf8')
      .trim()
      .split('\n');
    expect(logged.filter((line) => line.includes('sandbox editor ready')).map((line) => (JSON.parse(line) as { generation: number }).generation)).toEqual([1, 1]);

    const unknown = await runToExit(process.execPath, [TETHER_BIN, 'sandbox', '--project', workspace.project], { env: { ...workspace.env, TETHER_LOG_FORMAT: 'xml' } });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('TETHER_LOG_FORMAT is "xml"; it takes json or pretty.');
    const option = await runToExit(process.execPath, [TETHER_BIN, 'serve', '--log-format', 'xml'], { env: workspace.env });
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("option '--log-format <format>' argument 'xml' is invalid. Allowed choices are json, pretty.");
  });

  it('tether serve says where it listens in a sentence with --log-format pretty, and in a JSON line otherwise', async () => {
    const workspace = createWorkspace();
    const json = new TetherProcess(['serve', '--port', '0'], workspace.env);
    const listening = JSON.parse(await json.waitForLine((line) => line.startsWith('{'))) as { event: string; url: string };
    expect(listening).toMatchObject({ event: 'listening', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/) });
    await json.stop();
    const pretty = new TetherProcess(['serve', '--port', '0', '--log-format', 'pretty'], workspace.env);
    const line = await pretty.waitForLine((l) => l.length > 0);
    expect(line).toMatch(new RegExp(`^Tether serve listening on http://127\\.0\\.0\\.1:\\d+/mcp \\(bearer token in ${workspace.home}/\\S+\\)\\. Ctrl\\+C stops\\.$`));
  });

  it('tether mcp with readable logs: stdout still carries the protocol and nothing else', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const mcp = new TetherProcess(['mcp', '--project', workspace.project, '--log-format', 'pretty', '--log-level', 'info'], workspace.env, { stdin: 'pipe' });
    mcp.child.stdin!.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await mcp.waitForLine((line) => line.includes('"id":1'));
    mcp.child.stdin!.end();
    expect(await mcp.exited).toBe(0);
    // Every line is JSON-RPC (the answer, and list_changed notices if the editor's lists arrived meanwhile).
    const messages = mcp.lines.map((line) => JSON.parse(line) as { jsonrpc: string; id?: number });
    expect(messages.every((message) => message.jsonrpc === '2.0')).toBe(true);
    expect(messages.filter((message) => message.id === 1)).toHaveLength(1);
    expect(mcp.stderrLines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}mcp: shutting down {2}why="stdin closed"$/));
  });

  it.skipIf(!hasScript)(
    `npm start on a terminal: how to connect once, a short line per reload instead of the JSON ready line again, and Enter shows how to connect again${needsScript}`,
    async () => {
      const workspace = createWorkspace();
      const terminal = onTerminal(['start', '--port', '0'], workspace.env, terminalLog(workspace, 'start.log'));
      await expect.poll(terminal.shown, { timeout: 20_000 }).toContain('Press Enter to show this again, Ctrl+C to stop.');
      const project = join(workspace.home, 'projects', 'sample-project');
      // compile_scripts reloads the editor's domain (3 s by default).
      const compiled = await runToExit(process.execPath, [TETHER_BIN, 'call', 'compile_scripts', '--project', project, '--wait-ms', '20000'], { env: workspace.env, timeoutMs: 25_000 });
      expect(compiled.code, compiled.stderr).toBe(0);
      await expect.poll(terminal.lines, { timeout: 15_000 }).toContainEqual(expect.stringMatching(/^Sandbox editor reloaded in \d+\.\d s \(scripts compiled\)\.$/));
      expect(terminal.shown()).not.toContain('"event":"ready"');
      expect(terminal.shown().match(/Press Enter to show this again/g)).toHaveLength(1);
      terminal.type('\n');
      await expect.poll(() => terminal.shown().match(/Press Enter to show this again/g)?.length ?? 0, { timeout: 5_000 }).toBe(2);
      expect(terminal.shown().match(/Tether HTTP endpoint: +http/g)).toHaveLength(2);
    },
    45_000,
  );

  it.skipIf(!hasScript)(
    `npm start & in an interactive shell: it keeps serving, and does not read the terminal it may not read${needsScript}`,
    async () => {
      const workspace = createWorkspace();
      const pidFile = join(dirname(workspace.home), 'start.pid');
      // An interactive bash has job control: the job gets its own process group, and the
      // terminal stays the shell's. A job that reads it is stopped, editor and server with it.
      const job = `${tetherCommand(['start', '--port', '0'])} & echo $! > ${shellQuote(pidFile)}; wait`;
      const terminal = shellOnTerminal(`bash --norc -ic ${shellQuote(job)}`, workspace.env, terminalLog(workspace, 'start-background.log'));
      try {
        await expect.poll(terminal.shown, { timeout: 20_000 }).toContain('Press Ctrl+C to stop.');
        expect(terminal.shown()).not.toContain('Press Enter');
        const project = join(workspace.home, 'projects', 'sample-project');
        const called = await runToExit(process.execPath, [TETHER_BIN, 'call', 'get_hierarchy', '--project', project, '--wait-ms', '5000'], { env: workspace.env, timeoutMs: 15_000 });
        expect(called.code, called.stderr).toBe(0);
        expect(readFileSync(`/proc/${readFileSync(pidFile, 'utf8').trim()}/stat`, 'utf8')).toMatch(/\) [RS] /);
      } finally {
        // The job is the shell's child, not ours: it goes by its pid (SIGCONT first, should it be stopped).
        const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : undefined;
        if (pid) for (const signal of ['SIGCONT', 'SIGTERM'] as const) process.kill(pid, signal);
        if (pid) await expect.poll(() => existsSync(`/proc/${pid}`) && !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z '), { timeout: 10_000 }).toBe(false);
      }
    },
    45_000,
  );
});
