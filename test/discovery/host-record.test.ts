/**
 * What a client trusts in $TETHER_HOME/hosts/: only records that are regular files of this
 * user's that no one else may change. A planted record would send the client, and the host
 * token it presents, to someone else's port. Real files in each test's own TETHER_HOME, and
 * once through a real `tether hosts`.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listHostRecords, recordPath, writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import type { WarningLog } from '../../src/discovery/secure-file.js';
import { hostsDir } from '../../src/discovery/tether-home.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

function record(instanceId: string, port: number): HostRecord {
  return { instanceId, pid: process.pid, port, host: '127.0.0.1', token: `token-${instanceId}`, projectPath: '/project', kind: 'sandbox', protocolVersion: 1, startedAt: new Date().toISOString() };
}

/** A workspace whose hosts/ holds one genuine record, `real`. */
function withRealRecord(): { workspace: Workspace; dir: string } {
  const workspace = createWorkspace();
  const dir = hostsDir(workspace.home);
  writeHostRecord(record('real', 40_001), dir);
  return { workspace, dir };
}

function warnings(): WarningLog & { reasons: Record<string, unknown> } {
  const reasons: Record<string, unknown> = {};
  return { reasons, warn: (data) => void (reasons[String(data.path)] = data.reason) };
}

const listed = (dir: string, log: WarningLog): string[] => listHostRecords(dir, log).map((r) => r.instanceId);

describe('listHostRecords', () => {
  it('skips, and leaves, a record others may change, even one whose process is gone', () => {
    const { dir } = withRealRecord();
    // Others may read this one, but not change it: still trusted (clients need integrity).
    chmodSync(recordPath(dir, 'real'), 0o644);
    const planted = writeHostRecord(record('planted', 40_002), dir);
    chmodSync(planted, 0o666);
    const gone = writeHostRecord({ ...record('gone', 40_003), pid: 2 ** 22 + 1 }, dir);
    chmodSync(gone, 0o620);
    const log = warnings();
    expect(listed(dir, log)).toEqual(['real']);
    expect(log.reasons).toEqual({ [planted]: 'its mode 0666 lets other users change it', [gone]: 'its mode 0620 lets other users change it' });
    expect(existsSync(planted) && existsSync(gone)).toBe(true);
  });

  it('skips a record it does not understand, saying which field, for whoever writes the host', () => {
    const { dir } = withRealRecord();
    const { startedAt: _left, ...incomplete } = record('incomplete', 40_004);
    const path = recordPath(dir, 'incomplete');
    writeHostRecord(incomplete as HostRecord, dir);
    const seen: Array<Record<string, unknown>> = [];
    expect(listed(dir, { warn: (data, message) => void seen.push({ ...data, message }) })).toEqual(['real']);
    expect(seen).toEqual([{ path, field: 'startedAt', reason: expect.any(String), message: 'host record not understood (protocol.md §12), so skipped' }]);
  });

  it('skips, and removes, a record whose pid names no single process (0 is our own group, -1 every process)', () => {
    const { dir } = withRealRecord();
    for (const pid of [0, -1]) writeHostRecord({ ...record(`pid${pid}`, 40_010), pid }, dir);
    expect(listed(dir, warnings())).toEqual(['real']);
    expect(existsSync(recordPath(dir, 'pid0'))).toBe(false);
    expect(existsSync(recordPath(dir, 'pid-1'))).toBe(false);
  });

  it("never follows a symbolic link, even to a private record of this user's", () => {
    const { workspace, dir } = withRealRecord();
    const elsewhere = join(workspace.home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    const target = writeHostRecord(record('linked', 40_004), elsewhere);
    const link = recordPath(dir, 'linked');
    symlinkSync(target, link);
    const log = warnings();
    expect(listed(dir, log)).toEqual(['real']);
    expect(log.reasons).toEqual({ [link]: 'it is a symbolic link' });
  });

  it.runIf(process.getuid?.() === 0)('skips a record another user owns', () => {
    const { dir } = withRealRecord();
    const planted = writeHostRecord(record('planted', 40_002), dir);
    chownSync(planted, 4242, 4242);
    const log = warnings();
    expect(listed(dir, log)).toEqual(['real']);
    expect(log.reasons).toEqual({ [planted]: 'it belongs to another user (uid 4242; this process runs as uid 0)' });
  });
});

describe('tether hosts', () => {
  it('lists the genuine host only, and warns on stderr about the planted record', async () => {
    const { workspace, dir } = withRealRecord();
    const planted = writeHostRecord(record('planted', 40_002), dir);
    chmodSync(planted, 0o666);
    const run = await runToExit(process.execPath, [TETHER_BIN, 'hosts', '--json'], { env: workspace.env });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as HostRecord[]).map((r) => r.instanceId)).toEqual(['real']);
    expect(run.stderr).toContain(`host record not trusted, so skipped {"path":"${planted}","reason":"its mode 0666 lets other users change it"}`);
  });

  it('says what is wrong with a TETHER_HOME that is a file, in a typed error, instead of crashing', async () => {
    const workspace = createWorkspace();
    const file = join(workspace.project, 'not-a-folder');
    writeFileSync(file, '');
    const env = { ...workspace.env, TETHER_HOME: file };
    const hosts = await runToExit(process.execPath, [TETHER_BIN, 'hosts', '--json'], { env });
    expect(hosts.code, hosts.stderr).toBe(0);
    expect(JSON.parse(hosts.stdout)).toEqual([]);
    expect(hosts.stderr).toContain('it cannot be read (ENOTDIR)');
    const call = await runToExit(process.execPath, [TETHER_BIN, 'call', 'get_hierarchy', '--wait-ms', '0'], { env });
    expect(call.code, call.stderr).toBe(1);
    expect(call.stderr).toMatch(/Refusing to use .*not-a-folder\/hosts: it cannot be made \(ENOTDIR.*Set TETHER_HOME to a folder of your own.*\[UNSAFE_DIRECTORY\]/s);
    expect(call.stderr).not.toContain('unexpected error');
  });
});
