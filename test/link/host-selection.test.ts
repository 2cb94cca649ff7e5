import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listHostRecords, writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import { selectHost } from '../../src/link/host-selection.js';
import { TetherError } from '../../src/protocol/index.js';
import { tempDir } from './fake-host.js';
import { thrownBy } from '../helpers/thrown.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function setup(): { recordsDir: string; projects: string } {
  const { dir, remove } = tempDir('tether-select-');
  cleanups.push(remove);
  const projects = join(dir, 'projects');
  mkdirSync(projects);
  return { recordsDir: join(dir, 'hosts'), projects };
}

let port = 40_000;
function advertise(recordsDir: string, instanceId: string, projectPath: string, startedAt: string): HostRecord {
  const record: HostRecord = {
    instanceId,
    pid: process.pid,
    port: port++,
    host: '127.0.0.1',
    token: `secret-token-${instanceId}`,
    projectPath,
    kind: 'sandbox',
    name: instanceId,
    protocolVersion: 1,
    startedAt,
  };
  writeHostRecord(record, recordsDir);
  return record;
}

const selectionError = (fn: () => unknown): TetherError => thrownBy(fn, TetherError);

describe('selectHost (over records read from a real hosts folder)', () => {
  it('--project picks the matching record, the newest when there are duplicates', () => {
    const { recordsDir, projects } = setup();
    const game = join(projects, 'game');
    const other = join(projects, 'other');
    // File names sort opposite to age, so only startedAt can make the newest win.
    advertise(recordsDir, 'z-old', game, '2024-01-01T00:00:00.000Z');
    advertise(recordsDir, 'a-new', game, '2024-06-01T00:00:00.000Z');
    advertise(recordsDir, 'm-mid', game, '2024-03-01T00:00:00.000Z');
    advertise(recordsDir, 'b-other', other, '2025-01-01T00:00:00.000Z');
    const records = listHostRecords(recordsDir);
    expect(records).toHaveLength(4);
    // cwd points at the other project: --project must still win over the working directory.
    expect(selectHost(records, { project: game, cwd: other }).instanceId).toBe('a-new');
    // A relative or unnormalised --project is resolved first.
    expect(selectHost(records, { project: `${other}/../game/.`, cwd: '/' }).instanceId).toBe('a-new');
    expect(selectHost(records, { project: other, cwd: game }).instanceId).toBe('b-other');
  });

  it('finds a project named through a symbolic link, by --project and by the working directory, either way round', () => {
    const { recordsDir, projects } = setup();
    const game = join(projects, 'game');
    mkdirSync(join(game, 'Assets'), { recursive: true });
    const linked = join(projects, 'linked-game'); // as /tmp is /private/tmp on macOS
    symlinkSync(game, linked);
    advertise(recordsDir, 'real', game, '2024-01-01T00:00:00.000Z');
    advertise(recordsDir, 'other', join(projects, 'other'), '2024-01-02T00:00:00.000Z');
    let records = listHostRecords(recordsDir);
    expect(selectHost(records, { project: linked, cwd: '/' }).instanceId).toBe('real');
    expect(selectHost(records, { cwd: join(linked, 'Assets') }).instanceId).toBe('real');
    // The editor may be the one that names its project through the link.
    advertise(recordsDir, 'real', linked, '2024-01-01T00:00:00.000Z');
    records = listHostRecords(recordsDir);
    expect(selectHost(records, { project: game, cwd: '/' }).instanceId).toBe('real');
    expect(selectHost(records, { cwd: join(game, 'Assets') }).instanceId).toBe('real');
  });

  it('--project for a project with no host: HOST_NOT_FOUND naming it, how to start it, and what runs', () => {
    const { recordsDir, projects } = setup();
    advertise(recordsDir, 'only', join(projects, 'game'), '2024-01-01T00:00:00.000Z');
    const wanted = join(projects, 'missing');
    const error = selectionError(() => selectHost(listHostRecords(recordsDir), { project: wanted }));
    expect(error.code).toBe('HOST_NOT_FOUND');
    expect(error.message).toContain(wanted);
    expect(error.message).toMatch(/start/i);
    expect(error.message).toContain(`tether sandbox --project ${wanted}`);
    expect(error.data).toMatchObject({ project: wanted, running: [{ projectPath: join(projects, 'game'), kind: 'sandbox', pid: process.pid }] });
  });

  it('a cwd inside a project picks that project, the innermost one when projects nest', () => {
    const { recordsDir, projects } = setup();
    const outer = join(projects, 'outer');
    const inner = join(outer, 'packages', 'inner');
    advertise(recordsDir, 'outer', outer, '2024-01-01T00:00:00.000Z');
    advertise(recordsDir, 'inner', inner, '2024-01-02T00:00:00.000Z');
    advertise(recordsDir, 'unrelated', join(projects, 'unrelated'), '2024-01-03T00:00:00.000Z');
    const records = listHostRecords(recordsDir);
    expect(selectHost(records, { cwd: join(inner, 'Assets', 'Scripts') }).instanceId).toBe('inner');
    expect(selectHost(records, { cwd: inner }).instanceId).toBe('inner');
    expect(selectHost(records, { cwd: join(outer, 'src') }).instanceId).toBe('outer');
    expect(selectHost(records, { cwd: outer }).instanceId).toBe('outer');
    // A sibling sharing a name prefix is not "inside".
    expect(() => selectHost(records, { cwd: `${outer}-copy` })).toThrow(expect.objectContaining({ code: 'HOST_AMBIGUOUS' }));
    // The order the records come in does not matter.
    expect(selectHost([...records].reverse(), { cwd: join(inner, 'x') }).instanceId).toBe('inner');
  });

  it('a cwd inside a project with several records picks the newest, as --project does', () => {
    const { recordsDir, projects } = setup();
    const game = join(projects, 'game');
    // A crashed editor's record whose pid another process now has, the restarted editor's, and
    // one of an enclosing project. File names sort opposite to age: only startedAt decides.
    advertise(recordsDir, 'z-crashed', game, '2024-01-01T00:00:00.000Z');
    advertise(recordsDir, 'a-restarted', game, '2024-06-01T00:00:00.000Z');
    advertise(recordsDir, 'm-outer', projects, '2025-01-01T00:00:00.000Z');
    const records = listHostRecords(recordsDir);
    expect(selectHost(records, { cwd: join(game, 'Assets') }).instanceId).toBe('a-restarted');
    expect(selectHost(records, { cwd: join(game, 'Assets') }).instanceId).toBe(selectHost(records, { project: game, cwd: '/' }).instanceId);
    expect(selectHost(records, { cwd: join(projects, 'other') }).instanceId).toBe('m-outer');
  });

  it('picks the only running host even when cwd is elsewhere', () => {
    const { recordsDir, projects } = setup();
    advertise(recordsDir, 'solo', join(projects, 'game'), '2024-01-01T00:00:00.000Z');
    expect(selectHost(listHostRecords(recordsDir), { cwd: '/' }).instanceId).toBe('solo');
  });

  it('zero hosts: HOST_NOT_FOUND telling how to start one', () => {
    const { recordsDir } = setup();
    const error = selectionError(() => selectHost(listHostRecords(recordsDir), { cwd: '/' }));
    expect(error.code).toBe('HOST_NOT_FOUND');
    expect(error.message).toMatch(/no editor is running/i);
    expect(error.message).toContain('npm start');
    expect(error.message).toContain('--project');
    expect(error.data).toEqual({ running: [] });
  });

  it('several hosts and nothing to choose by: HOST_AMBIGUOUS listing them in data.running', () => {
    const { recordsDir, projects } = setup();
    const a = advertise(recordsDir, 'a', join(projects, 'a'), '2024-01-01T00:00:00.000Z');
    const b = advertise(recordsDir, 'b', join(projects, 'b'), '2024-01-02T00:00:00.000Z');
    const error = selectionError(() => selectHost(listHostRecords(recordsDir), { cwd: '/' }));
    expect(error.code).toBe('HOST_AMBIGUOUS');
    expect(error.message).toContain('--project');
    expect(error.message).toContain(a.projectPath);
    expect(error.message).toContain(b.projectPath);
    expect(error.data.running).toEqual([
      { kind: 'sandbox', projectPath: a.projectPath, pid: process.pid, port: a.port },
      { kind: 'sandbox', projectPath: b.projectPath, pid: process.pid, port: b.port },
    ]);
    // The listing never leaks tokens.
    expect(JSON.stringify(error.data)).not.toContain('secret-token-');
  });

  it('skips (and deletes) records of dead processes before choosing', () => {
    const { recordsDir, projects } = setup();
    advertise(recordsDir, 'alive', join(projects, 'alive'), '2024-01-01T00:00:00.000Z');
    writeHostRecord(
      {
        instanceId: 'dead',
        pid: 2 ** 22 + 12_345,
        port: 1,
        host: '127.0.0.1',
        token: 'x',
        projectPath: join(projects, 'dead'),
        kind: 'sandbox',
        protocolVersion: 1,
        startedAt: '2024-01-02T00:00:00.000Z',
      },
      recordsDir,
    );
    expect(selectHost(listHostRecords(recordsDir), { cwd: '/' }).instanceId).toBe('alive');
  });
});
