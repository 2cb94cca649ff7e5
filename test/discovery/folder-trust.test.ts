/**
 * The folders around Tether's private files. A reader warns about a host records folder, or a
 * TETHER_HOME, that other users may change; nothing is written into a TETHER_HOME another
 * user owns (logs/, cache/, anything made by ensurePrivateDir), with a typed error that says
 * what to do. Real folders in each test's own TETHER_HOME; whose a folder is cannot be changed
 * without root, so ownership is tested where the tests run as root. Windows has no uids or
 * POSIX modes: there nothing is checked, and the walk up a path is tested with path.win32.
 */
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import path, { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { foldersAbove, foreignFolderAbove } from '../../src/discovery/folder-trust.js';
import { RECORDS_FOLDER_WARNING, listHostRecords, recordsFolderProblems, writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import { UnsafeDirectoryError, ensurePrivateDir, writePrivateFile, type WarningLog } from '../../src/discovery/secure-file.js';
import { hostsDir } from '../../src/discovery/tether-home.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, runToExit } from '../helpers/processes.js';
import { thrownBy } from '../helpers/thrown.js';
import { EXIT_CODES } from '../../src/cli/exit-codes.js';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanupProcesses();
});

const asRoot = process.getuid?.() === 0;
const STRANGER = 4242;

/** A TETHER_HOME holding one genuine host record, so readers have something to read. */
function homeWithRecord(): { home: string; records: string; project: string; env: NodeJS.ProcessEnv } {
  const workspace = createWorkspace();
  const records = hostsDir(workspace.home);
  const record: HostRecord = {
    instanceId: 'real',
    pid: process.pid,
    port: 40_001,
    host: '127.0.0.1',
    token: 't',
    projectPath: workspace.project,
    kind: 'sandbox',
    protocolVersion: 1,
    startedAt: new Date().toISOString(),
  };
  writeHostRecord(record, records);
  return { home: workspace.home, records, project: workspace.project, env: workspace.env };
}

function collected(): WarningLog & { seen: Array<{ message: string; path: unknown; reason: unknown }> } {
  const seen: Array<{ message: string; path: unknown; reason: unknown }> = [];
  return { seen, warn: (data, message) => void seen.push({ message, path: data.path, reason: data.reason }) };
}

describe('foldersAbove', () => {
  it('walks a POSIX path up to /', () => {
    expect(foldersAbove('/home/ana/.local/state/tether/logs', path.posix)).toEqual(['/home/ana/.local/state/tether', '/home/ana/.local/state', '/home/ana/.local', '/home/ana', '/home', '/']);
    expect(foldersAbove('/', path.posix)).toEqual([]);
  });

  it('walks a Windows path up to its drive or share, whatever the slashes', () => {
    expect(foldersAbove('C:\\Users\\ana\\AppData\\Local\\tether\\logs', path.win32)).toEqual([
      'C:\\Users\\ana\\AppData\\Local\\tether',
      'C:\\Users\\ana\\AppData\\Local',
      'C:\\Users\\ana\\AppData',
      'C:\\Users\\ana',
      'C:\\Users',
      'C:\\',
    ]);
    expect(foldersAbove('C:/Users/ana/tether/', path.win32)).toEqual(['C:\\Users\\ana', 'C:\\Users', 'C:\\']);
    expect(foldersAbove('\\\\server\\share\\tether\\hosts', path.win32)).toEqual(['\\\\server\\share\\tether', '\\\\server\\share\\']);
  });
});

describe('a reader of host records', () => {
  it('says nothing of a private records folder and TETHER_HOME', () => {
    const { records } = homeWithRecord();
    const log = collected();
    expect(listHostRecords(records, log).map((r) => r.instanceId)).toEqual(['real']);
    expect(log.seen).toEqual([]);
  });

  it('warns, saying what to do, about a records folder or a TETHER_HOME that other users may change, and still reads its own records', () => {
    const { home, records } = homeWithRecord();
    chmodSync(records, 0o770);
    chmodSync(home, 0o1777); // sticky: strangers may still add their own files to it
    const log = collected();
    expect(listHostRecords(records, log).map((r) => r.instanceId)).toEqual(['real']);
    expect(log.seen).toEqual([
      { message: RECORDS_FOLDER_WARNING, path: records, reason: 'its mode 0770 lets other users change it' },
      { message: RECORDS_FOLDER_WARNING, path: home, reason: 'its mode 0777 lets other users change it' },
    ]);
    expect(RECORDS_FOLDER_WARNING).toMatch(/chmod 700.*set TETHER_HOME to a folder of your own/);
  });

  it.runIf(asRoot)('warns about a TETHER_HOME another user owns', () => {
    const { home, records } = homeWithRecord();
    chownSync(home, STRANGER, STRANGER);
    expect(recordsFolderProblems(records)).toEqual([{ path: home, reason: `it belongs to another user (uid ${STRANGER}; this process runs as uid 0)` }]);
  });

  it("checks nothing where there are no uids (Windows: the profile's ACLs apply)", () => {
    const { home, records } = homeWithRecord();
    chmodSync(home, 0o777);
    vi.spyOn(process, 'getuid').mockReturnValue(undefined as unknown as number);
    expect(recordsFolderProblems(records)).toEqual([]);
    const log = collected();
    listHostRecords(records, log);
    expect(log.seen).toEqual([]);
  });
});

describe.runIf(asRoot)('a TETHER_HOME another user owns', () => {
  /** A TETHER_HOME made by someone else, open for anyone to enter, as a planted one would be. */
  function strangersHome(): { home: string; project: string; env: NodeJS.ProcessEnv } {
    const workspace = createWorkspace();
    mkdirSync(workspace.home, { mode: 0o755 });
    chmodSync(workspace.home, 0o755);
    chownSync(workspace.home, STRANGER, STRANGER);
    return workspace;
  }

  it('gets no logs/ or cache/ of ours: ensurePrivateDir refuses with a typed error that says what to do', () => {
    const { home } = strangersHome();
    for (const dir of [join(home, 'logs'), join(home, 'cache', 'cli')]) {
      const error = thrownBy(() => ensurePrivateDir(dir), UnsafeDirectoryError);
      expect(error.code).toBe('UNSAFE_DIRECTORY');
      expect(error.path).toBe(dir);
      expect(error.problem).toBe(`it lies inside ${home}, which belongs to another user (uid ${STRANGER}; this process runs as uid 0)`);
      expect(error.message).toContain('Set TETHER_HOME to a directory of your own');
    }
    expect(() => writePrivateFile(join(home, 'cache', 'cli', 'mcp.v8cache'), 'code')).toThrow(UnsafeDirectoryError);
    expect(readdirSync(home)).toEqual([]);
  });

  it('is not refused for a folder root owns above it (/, /tmp), which root could change anyway', () => {
    const { home } = createWorkspace();
    expect(foreignFolderAbove(join(home, 'logs'))).toBeUndefined();
    ensurePrivateDir(join(home, 'logs'));
    expect(existsSync(join(home, 'logs'))).toBe(true);
  });

  it('is refused by a real `tether mcp`: it runs, logs to stderr only, writes no log or cache file there, and warns about the folder', async () => {
    const { home, project, env } = strangersHome();
    mkdirSync(join(project, 'Assets'), { recursive: true });
    // stdin at its end: the front starts, finds no editor, and exits as a client that left.
    const run = await runToExit(process.execPath, [TETHER_BIN, 'mcp', '--project', project, '--log-level', 'warn'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Refusing to use ${join(home, 'logs')}: it lies inside ${home}, which belongs to another user`);
    expect(run.stderr).toContain(`${RECORDS_FOLDER_WARNING} {"path":"${home}","reason":"it belongs to another user (uid ${STRANGER}; this process runs as uid 0)"}`);
    expect(existsSync(join(home, 'logs'))).toBe(false);
    expect(existsSync(join(home, 'cache'))).toBe(false);
  });

  it('stops a real `tether sandbox` and `tether serve` with the refusal and its code, not as an unexpected error', async () => {
    const { home, project, env } = strangersHome();
    mkdirSync(join(project, 'Assets'), { recursive: true });
    const sandbox = await runToExit(process.execPath, [TETHER_BIN, 'sandbox', '--project', project], { env });
    expect(sandbox.code, sandbox.stderr).toBe(EXIT_CODES.failed);
    expect(sandbox.stderr).toContain(`tether: Refusing to use ${join(home, 'hosts')}: it lies inside ${home}, which belongs to another user`);
    expect(sandbox.stderr).toContain('[UNSAFE_DIRECTORY]');
    const serve = await runToExit(process.execPath, [TETHER_BIN, 'serve', '--port', '0', '--project', project], { env });
    expect(serve.code, serve.stderr).toBe(EXIT_CODES.usage);
    expect(serve.stderr).toContain(`tether: Refusing to use ${home}: it belongs to another user`);
    expect(serve.stderr).toContain('[UNSAFE_DIRECTORY]');
    for (const run of [sandbox, serve]) expect(run.stderr).not.toContain('unexpected error');
    expect(readdirSync(home)).toEqual([]);
  });
});
