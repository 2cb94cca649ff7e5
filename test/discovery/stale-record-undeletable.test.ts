/**
 * A stale host record (its process gone) that cannot be deleted: a read-only records folder,
 * or on Windows a file another process holds open (EPERM, EACCES, EBUSY). Listing must skip
 * it as stale and go on: one such leftover, of any project, must not hide every editor.
 *
 * Deleting cannot be made to fail for real here (the tests run as root, which chmod does not
 * stop), so node:fs's rmSync is mocked to refuse the one record, as Node would; the records,
 * the folder and everything else are real.
 */
import { existsSync, type PathLike } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listHostRecords, writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import { hostsDir } from '../../src/discovery/tether-home.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';

/** The records whose deletion fails, with the code Node gives. */
const refused = vi.hoisted(() => new Map<string, string>());

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const rmSync: typeof fs.rmSync = (path: PathLike, options) => {
    const code = refused.get(String(path));
    if (code) throw Object.assign(new Error(`${code}: operation not permitted, unlink '${String(path)}'`), { errno: -1, code, syscall: 'unlink', path: String(path) });
    fs.rmSync(path, options);
  };
  return { ...fs, default: { ...fs, rmSync }, rmSync };
});

afterEach(async () => {
  refused.clear();
  await cleanupProcesses();
});

function record(instanceId: string, pid: number): HostRecord {
  return {
    instanceId,
    pid,
    port: 40_001,
    host: '127.0.0.1',
    token: `token-${instanceId}`,
    projectPath: `/projects/${instanceId}`,
    kind: 'sandbox',
    protocolVersion: 1,
    startedAt: new Date().toISOString(),
  };
}

describe('listHostRecords and a stale record it cannot delete', () => {
  it.each(['EPERM', 'EACCES', 'EBUSY'])('%s: skips it, says so, and lists the live ones', (code) => {
    const dir = hostsDir(createWorkspace().home);
    writeHostRecord(record('live-1', process.pid), dir);
    const stale = writeHostRecord(record('crashed', 2 ** 22 + 12_345), dir);
    writeHostRecord(record('live-2', process.pid), dir);
    const gone = writeHostRecord(record('gone', 2 ** 22 + 12_346), dir);
    refused.set(stale, code);
    const said: Array<Record<string, unknown>> = [];
    const listed = listHostRecords(dir, { warn: (data, message) => void said.push({ ...data, message }) });
    expect(listed.map((r) => r.instanceId).sort()).toEqual(['live-1', 'live-2']);
    expect(said).toEqual([{ path: stale, reason: code, message: 'stale host record (its process is gone) could not be deleted, so skipped' }]);
    // The one that could be deleted was; the other stays, and is skipped again next time.
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(stale)).toBe(true);
    expect(
      listHostRecords(dir, { warn: () => undefined })
        .map((r) => r.instanceId)
        .sort(),
    ).toEqual(['live-1', 'live-2']);
  });
});
