/**
 * Where a tether process writes its log file: a private logs/ folder, and never through a
 * symbolic link, which would let whoever planted it read or clobber another file.
 */
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

afterEach(cleanupProcesses);

describe('log files', () => {
  it('are not written through a symbolic link; the process logs to stderr only and keeps working', async () => {
    const workspace = createWorkspace();
    const logs = join(workspace.home, 'logs');
    mkdirSync(logs, { recursive: true, mode: 0o755 });
    const elsewhere = join(dirname(workspace.home), 'elsewhere.txt');
    writeFileSync(elsewhere, 'untouched\n');
    symlinkSync(elsewhere, join(logs, 'sandbox.log'));

    const { sandbox } = await startSandbox(workspace);
    await sandbox.waitForStderrLine((line) => line.includes('log file not opened'));
    expect(readFileSync(elsewhere, 'utf8')).toBe('untouched\n');
    expect(statSync(logs).mode & 0o777).toBe(0o700); // a folder of ours others could enter is tightened
  });

  it('a logs folder that is a symbolic link costs the file, not the process', async () => {
    const workspace = createWorkspace();
    const elsewhere = join(dirname(workspace.home), 'elsewhere');
    mkdirSync(elsewhere);
    mkdirSync(workspace.home, { recursive: true });
    symlinkSync(elsewhere, join(workspace.home, 'logs'));
    const { sandbox } = await startSandbox(workspace);
    await sandbox.waitForStderrLine((line) => line.includes('log file not opened'));
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
