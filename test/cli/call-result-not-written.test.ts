/**
 * A call that ran must never be reported as failed (exit 1) because its result could not be
 * written: a script retrying on 1 would run a non-idempotent tool twice. A bad --out is refused
 * before anything is sent (exit 2); a result lost after the call (a full disk) is
 * RESULT_NOT_WRITTEN, exit 4, with what could still be printed. Real `tether call` processes
 * against a real sandbox; /dev/full stands for a full disk.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, openSync, readdirSync, closeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';
import { outPath } from '../../src/cli/image-files.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, executedTools, runToExit, sceneText, startSandbox, type Run, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

const hasDevFull = existsSync('/dev/full');
const needsDevFull = hasDevFull ? '' : ' (skipped: needs /dev/full)';

/** `tether call` with its stdout going to /dev/full, as `> /dev/full` does: every write fails with ENOSPC. */
async function callIntoFullDisk(workspace: Workspace, args: string[]): Promise<{ code: number | null; stderr: string }> {
  const full = openSync('/dev/full', 'w');
  try {
    const child = spawn(process.execPath, [TETHER_BIN, 'call', ...args, '--project', workspace.project], { env: workspace.env, stdio: ['ignore', full, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stderr };
  } finally {
    closeSync(full);
  }
}

function call(workspace: Workspace, args: string[], cwd?: string): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, 'call', ...args, '--project', workspace.project], { env: workspace.env, ...(cwd ? { cwd } : {}) });
}

describe('tether call: a result that cannot be written', () => {
  it.skipIf(!hasDevFull)(`stdout on a full disk: exit 4 RESULT_NOT_WRITTEN saying the call completed, no stack trace; the object was created once${needsDevFull}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    for (const extra of [[], ['--json']]) {
      const name = `X${extra.length}`;
      const run = await callIntoFullDisk(workspace, ['create_gameobject', `name=${name}`, ...extra]);
      expect(run.code, run.stderr).toBe(EXIT_CODES.resultNotWritten);
      expect(run.stderr).toMatch(/^tether: "create_gameobject" completed in the editor, but its result could not be written: stdout could not be written \(ENOSPC[^\n]*\[RESULT_NOT_WRITTEN\]\n$/);
      expect(run.stderr).toContain('do not call it again to get the result');
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(sceneText(workspace)).toContain(`"${name}"`);
    }
    expect(executedTools(workspace)).toEqual(['create_gameobject', 'create_gameobject']);
  });

  it.skipIf(!hasDevFull)(`an image that cannot be written after the call: exit 4; --json prints {"error": …} holding the result${needsDevFull}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    // /dev/full passes the check before the call (a file that can be written), then fills up.
    const json = await call(workspace, ['screenshot', 'width=16', 'height=16', '--out', '/dev/full', '--json']);
    expect(json.code, json.stderr).toBe(EXIT_CODES.resultNotWritten);
    const { error } = JSON.parse(json.stdout) as { error: { code: string; message: string; data: Record<string, unknown> } };
    expect(error).toMatchObject({
      code: 'RESULT_NOT_WRITTEN',
      data: {
        callId: expect.any(String),
        tool: 'screenshot',
        isError: false,
        saved: [],
        unwritten: [{ what: 'image', path: '/dev/full', errno: 'ENOSPC' }],
        result: { content: expect.arrayContaining([{ type: 'image', mimeType: 'image/png', data: expect.any(String) }]) },
      },
    });
    expect(error.message).toContain('"screenshot" completed in the editor, but its result could not be written: the image could not be written to /dev/full');
    // A read-only tool: calling it again is safe, and the message says so.
    expect(error.message).toContain('is safe to call again');

    const plain = await call(workspace, ['screenshot', 'width=16', 'height=16', '--out', '/dev/full']);
    expect(plain.code, plain.stderr).toBe(EXIT_CODES.resultNotWritten);
    // What could be written was: the text of the result, and where the image is not.
    expect(plain.stdout).toBe('[image/png image not saved: see below]\nScene "SampleScene", 6 objects, 16x16 top-down view.\n');
    expect(plain.stderr).toMatch(/the image could not be written to \/dev\/full \(ENOSPC.*\[RESULT_NOT_WRITTEN\]/);
    expect(executedTools(workspace)).toEqual(['screenshot', 'screenshot']);
  });
});

describe('tether call --out: checked before anything is sent', () => {
  it('a file in a folder that does not exist, or a folder: exit 2, INVALID_PARAMS on --out (as JSON with --json), nothing executed', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const here = join(dirname(workspace.home), 'here');
    mkdirSync(here);
    const missing = await call(workspace, ['screenshot', '--out', 'missing/shot.png', '--json'], here);
    expect(missing.code, missing.stderr).toBe(EXIT_CODES.usage);
    expect(JSON.parse(missing.stdout)).toMatchObject({
      error: { code: 'INVALID_PARAMS', message: expect.stringContaining(`its folder ${join(here, 'missing')} does not exist`), data: { field: '--out' } },
    });
    expect(missing.stderr).toContain('Nothing was sent to the editor. [INVALID_PARAMS]');

    const folder = await call(workspace, ['screenshot', '--out', '.'], here);
    expect(folder.code, folder.stderr).toBe(EXIT_CODES.usage);
    expect(folder.stderr).toContain('--out .: it is a folder; name a file in it');
    expect(folder.stdout).toBe('');

    expect(executedTools(workspace)).toEqual([]);
    expect(readdirSync(here)).toEqual([]);
  });
});

describe('--out and several images', () => {
  it('numbers the images after the first as --out is written: with its extension, or with none when it has none', () => {
    expect([0, 1, 2].map((index) => outPath('shots/shot.png', index))).toEqual(['shot.png', 'shot-2.png', 'shot-3.png'].map((name) => join(process.cwd(), 'shots', name)));
    expect([0, 1].map((index) => outPath('shots/shot', index))).toEqual(['shot', 'shot-2'].map((name) => join(process.cwd(), 'shots', name)));
  });
});
