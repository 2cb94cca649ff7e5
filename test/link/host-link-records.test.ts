/**
 * The link and the records it finds its editor by, when they mislead it: a stale record that
 * cannot be deleted (a read-only records folder, a Windows file another process holds open), a
 * listing that fails while the link falls to `lost`, a crashed editor's record whose pid another
 * process now has, and an `evicted` bye in the same chunk as the handshake reply.
 *
 * A normal run cannot make deleting a record, or reading the records folder, fail (these tests
 * run as root, which chmod does not stop), so node:fs is mocked for the one path whose call
 * fails, and only then; everything else, the hosts, the records and the sockets, is real.
 */
import { existsSync, mkdirSync, watch, type PathLike } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Host } from '../../src/host/index.js';
import { writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import { HostLink, type HostLinkOptions } from '../../src/link/host-link.js';
import { METHODS, PROTOCOL_VERSION, type HelloResult } from '../../src/protocol/index.js';
import { FakeHost, frames, helloResult, isRequest, proofFor, recordStates, tempDir, waitForState } from './fake-host.js';

/** The paths whose rmSync, or statSync, fails, with the error code Node would give. */
const failing = vi.hoisted(() => ({ rm: new Map<string, string>(), stat: new Map<string, string>() }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const refusal = (code: string, syscall: string, path: PathLike): Error =>
    Object.assign(new Error(`${code}: operation refused, ${syscall} '${String(path)}'`), { errno: -1, code, syscall, path: String(path) });
  const rmSync: typeof fs.rmSync = (path, options) => {
    const code = failing.rm.get(String(path));
    if (code) throw refusal(code, 'unlink', path);
    fs.rmSync(path, options);
  };
  const statSync = ((path: PathLike, options?: Parameters<typeof fs.statSync>[1]) => {
    const code = failing.stat.get(String(path));
    if (code) throw refusal(code, 'stat', path);
    return fs.statSync(path, options);
  }) as typeof fs.statSync;
  return { ...fs, default: { ...fs, rmSync, statSync }, rmSync, statSync };
});

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  failing.rm.clear();
  failing.stat.clear();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Workspace {
  dir: string;
  recordsDir: string;
  projectPath: string;
}

function workspace(): Workspace {
  const { dir, remove } = tempDir('tether-link-records-');
  cleanups.push(remove);
  const projectPath = join(dir, 'project');
  mkdirSync(projectPath);
  return { dir, recordsDir: join(dir, 'hosts'), projectPath };
}

async function startHost(ws: Workspace): Promise<Host> {
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: ws.projectPath, recordsDir: ws.recordsDir });
  await host.start();
  cleanups.push(() => host.close());
  return host;
}

function makeLink(ws: Workspace, options: HostLinkOptions): HostLink {
  const link = new HostLink({ recordsDir: ws.recordsDir, ...options });
  cleanups.push(() => link.close());
  return link;
}

/** No retry during the test unless the record changes. */
const NO_RETRY = { backoff: { initialMs: 120_000, maxMs: 120_000 }, pollMs: 120_000 } satisfies HostLinkOptions;

/** A port nothing listens on: connecting to it is refused. */
async function refusingPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1' }, () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A record of an editor that is not there, in `ws`'s records folder. */
function leftover(ws: Workspace, overrides: Partial<HostRecord> & Pick<HostRecord, 'instanceId' | 'pid' | 'projectPath'>): string {
  return writeHostRecord(
    { port: 1, host: '127.0.0.1', token: 'x'.repeat(32), kind: 'test', protocolVersion: PROTOCOL_VERSION, startedAt: '2020-01-01T00:00:00.000Z', auth: 'proof', ...overrides },
    ws.recordsDir,
  );
}

/** A pid no process has (Linux pids stay below 2^22). */
const DEAD_PID = 2 ** 22 + 12_345;

function nextConnected(link: HostLink): Promise<HelloResult> {
  return new Promise((resolve) => link.once('connected', (hello) => resolve(hello)));
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves once `path` is gone (an event of its folder, not a poll). */
function removed(path: string, dir: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dir, () => {
      if (existsSync(path)) return;
      watcher.close();
      resolve();
    });
    if (!existsSync(path)) {
      watcher.close();
      resolve();
    }
  });
}

describe('HostLink: records that cannot be deleted or listed', () => {
  it("another project's stale record that cannot be deleted does not keep the link from its live editor", async () => {
    const ws = workspace();
    const host = await startHost(ws);
    const stale = leftover(ws, { instanceId: 'crashed', pid: DEAD_PID, projectPath: join(ws.dir, 'other') });
    failing.rm.set(stale, 'EPERM');
    const link = makeLink(ws, { project: ws.projectPath, ...NO_RETRY });
    const up = nextConnected(link);
    link.start();
    const hello = await within(up, 3_000, 'connected despite the undeletable stale record');
    expect(hello.host.instanceId).toBe(host.identity.instanceId);
    // Skipped, not deleted: the refusal was real to the code, so the file is still there.
    expect(existsSync(stale)).toBe(true);
  });

  it('a listing that fails while the link falls to lost still leaves it lost, with nothing unhandled', async () => {
    const ws = workspace();
    // An editor between two listeners: its process lives, its port refuses; its record stays.
    leftover(ws, { instanceId: 'reloading', pid: process.pid, port: await refusingPort(), projectPath: ws.projectPath });
    const link = makeLink(ws, { project: ws.projectPath, ...NO_RETRY });
    // The attempt has chosen its record by the time its first await yields; from then on, the
    // records folder cannot be read (what toLost lists to tell a reload from a crash).
    link.once('state', (state) => {
      if (state === 'connecting') queueMicrotask(() => failing.stat.set(ws.recordsDir, 'EIO'));
    });
    const lost = waitForState(link, 'lost');
    link.start();
    await lost;
    expect(link.lastFailure?.data).toMatchObject({ errno: 'ECONNREFUSED' });
  });
});

describe('HostLink: which record, when several name the project', () => {
  it("by the working directory, a crashed editor's record whose pid was reused does not hide the editor restarted for the project", async () => {
    const ws = workspace();
    // The crashed editor's record: its pid now belongs to another live process (this one).
    leftover(ws, { instanceId: 'crashed', pid: process.pid, port: await refusingPort(), projectPath: ws.projectPath });
    const host = await startHost(ws);
    const link = makeLink(ws, { cwd: join(ws.projectPath, 'Assets'), ...NO_RETRY });
    link.start();
    await link.connection(3_000);
    expect(link.record?.instanceId).toBe(host.identity.instanceId);
  });

  it('an "evicted" bye in the same chunk as the handshake reply keeps the link away from that instance, even when its record changes', async () => {
    const ws = workspace();
    // The hello reply, the bye, and what ends the connection, all in one read: here bytes that
    // are no frame, on which the link closes the connection at once, before its handshake has
    // returned (and so before it knows the handshake's record as the one it is connected to).
    const evicting = new FakeHost(ws.projectPath, (message, connection, fake) => {
      if (!isRequest(message) || message.method !== METHODS.hello) return;
      const reply = frames(
        { jsonrpc: '2.0', id: message.id, result: { ...helloResult(fake.instanceId, fake.projectPath), ...proofFor(message, fake.token) } },
        { jsonrpc: '2.0', method: METHODS.bye, params: { reason: 'evicted', status: 'evicted', newClientEndpoint: '127.0.0.1:1', message: 'Another client connected.', at: Date.now() } },
      );
      connection.socket.end(Buffer.concat([reply, Buffer.from('not a frame\r\n\r\n')]));
    });
    await evicting.start();
    cleanups.push(() => evicting.close());
    const old = { startedAt: '2020-01-01T00:00:00.000Z' };
    evicting.writeRecord(ws.recordsDir, old);
    const link = makeLink(ws, { project: ws.projectPath, ...NO_RETRY });
    const states = recordStates(link);
    const lost = waitForState(link, 'lost');
    link.start();
    await lost;
    expect(states).toEqual(['connecting', 'lost']);
    expect(link.lastFailure?.code).toBe('EVICTED');
    // The editor rewrites its record (as when its port changes). A stale record written with it
    // is deleted by the listing the link makes when it sees the change: once that is gone, the
    // link has decided, and it must have stayed away.
    const probe = leftover(ws, { instanceId: 'probe', pid: DEAD_PID, projectPath: join(ws.dir, 'other') });
    evicting.writeRecord(ws.recordsDir, old);
    await within(removed(probe, ws.recordsDir), 3_000, "the link's look at the changed records");
    expect(link.state).toBe('lost');
    expect(evicting.connections).toHaveLength(1);
    await expect(link.connection(0)).rejects.toMatchObject({ code: 'EVICTED' });
    // A new instance for the project (the editor restarted) is fair game again.
    const back = nextConnected(link);
    const host = await startHost(ws);
    expect((await within(back, 3_000, 'connected to the new instance')).host.instanceId).toBe(host.identity.instanceId);
  });
});
