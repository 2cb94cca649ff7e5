/**
 * Script-editing calls reload the editor's code domain themselves, and a real project's reload
 * often outlasts --wait-ms: such a call ended OUTCOME_UNKNOWN (exit 3) although it had completed.
 * While the editor is away for a reload and its process runs, `tether call` waits on, up to
 * --reload-wait-ms in all; an editor that dies meanwhile ends the wait at once. Real `tether
 * call` processes against a real sandbox whose reload is made longer than --wait-ms.
 */
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { refuses } from '../helpers/port-probe.js';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';
import { hasScript, needsScript, onTerminal, shellQuote, stopTerminals } from '../helpers/terminal.js';

afterEach(async () => {
  await stopTerminals();
  await cleanupProcesses();
});

const SCRIPT = 'Assets/Scripts/GameSettings.cs';

function editScript(workspace: Workspace, contents: string, ...extra: string[]): string[] {
  return ['call', 'edit_script', `path=${SCRIPT}`, `contents=${contents}`, '--project', workspace.project, ...extra];
}

describe('tether call and a domain reload longer than --wait-ms', () => {
  it('an edit that reloads the editor for longer than --wait-ms: the call waits for the reload and prints its result (exit 0), run once', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--reload-ms', '2500']);
    const run = await runToExit(process.execPath, [TETHER_BIN, ...editScript(workspace, '// edited', '--wait-ms', '300', '--json')], { env: workspace.env });
    expect(run.code, run.stderr).toBe(EXIT_CODES.ok);
    expect(JSON.parse(run.stdout)).toMatchObject({ structuredContent: { path: SCRIPT, compile: { domainReload: true } } });
    expect(executedTools(workspace)).toEqual(['edit_script']);
  });

  it('the editor dies during the reload: the wait ends at once, exit 3 saying so, with the callId to look up', async () => {
    const workspace = createWorkspace();
    const { sandbox, ready } = await startSandbox(workspace, ['--reload-ms', '60000']);
    // No wait but for the reload: only a wait that goes on for it is still there when the editor dies.
    const caller = new TetherProcess(editScript(workspace, '// edited', '--wait-ms', '0', '--reload-wait-ms', '120000'), workspace.env);
    await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toEqual(['edit_script']);
    await expect.poll(() => refuses(ready.port), { timeout: 10_000, interval: 50 }).toBe(true);
    await sandbox.kill();
    const died = performance.now();
    expect(await caller.exited).toBe(EXIT_CODES.outcomeUnknown);
    expect(performance.now() - died).toBeLessThan(10_000);
    expect(caller.stderr).toContain(`The editor's process (${sandbox.pid}) exited during its domain reload`);
    expect(caller.stderr).toMatch(/Check call [0-9a-f-]{36} with `tether status`\. \[OUTCOME_UNKNOWN\]/);
  });

  it.skipIf(!hasScript)(`says on a terminal that the editor announced a reload, and how long it waits for it${needsScript}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--reload-ms', '3000']);
    const out = join(dirname(workspace.home), 'edit.out');
    const terminal = onTerminal(editScript(workspace, '// edited', '--wait-ms', '300', '--reload-wait-ms', '20000'), workspace.env, join(dirname(workspace.home), 'edit.log'), `> ${shellQuote(out)}`);
    expect(await terminal.exited).toBe(EXIT_CODES.ok);
    expect(terminal.lines()).toContain('tether: waiting up to 20 s for the editor: it announced a domain reload, and is reloading its scripts.');
    expect(terminal.shown()).not.toContain('The host closed the connection');
  });
});
