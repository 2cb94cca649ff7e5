/**
 * The conformance suite against hosts built in-process with the host SDK: without the kit
 * (kit checks are skipped, not failed), with a JavaScript kit (the suite is not tied to the
 * sandbox), and with deliberate faults (the checks really fail).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECKS, KIT, KIT_MISSING_REASON, formatResult, runConformance, type CheckResult, type ConformanceReport } from '../../src/conformance/index.js';
import { recordPath } from '../../src/discovery/host-record.js';
import { writePrivateFile } from '../../src/discovery/secure-file.js';
import { Host, type HostOptions } from '../../src/host/index.js';
import { TetherError, type HelloResult, type ToolDescriptor } from '../../src/protocol/index.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * Short timings so the frame-timeout, heartbeat, ping, handshake-timeout and give-up checks run
 * instead of being skipped, and run fast. Not shorter: the kit allows half a heartbeat of
 * lateness, and the host and the kit share one process on a loaded machine (at 100 ms, 50 ms of
 * slack); a ping interval shorter than the frame timeout would drop the connection of the
 * frame-timeout check (it cannot answer a ping mid-frame) before its frame timed out.
 */
const FAST: Partial<HostOptions> = { heartbeatMs: 300, limits: { frameTimeoutMs: 300 }, pingIntervalMs: 400, handshakeTimeoutMs: 1_000, deadlineGraceMs: 500 };

/** What a host without a connection limit skips: it has no one to evict. */
const UNLIMITED_HOST_SKIPS = ['connections.eviction'];

interface Subject {
  host: Host;
  project: string;
  recordsDir: string;
}

async function startHost(make: (options: HostOptions) => Host = (options) => new Host(options), options: Partial<HostOptions> = FAST): Promise<Subject> {
  const root = mkdtempSync(join(tmpdir(), 'tether-conformance-'));
  const project = join(root, 'project');
  mkdirSync(project);
  const recordsDir = join(root, 'hosts');
  const host = make({ kind: 'test', name: 'SDK host', version: '1.0.0', projectPath: project, recordsDir, ...options });
  await host.start();
  cleanups.push(
    () => rmSync(root, { recursive: true, force: true }),
    () => host.close(),
  );
  return { host, project, recordsDir };
}

/** Waits ms milliseconds, stopping early when the call is cancelled unless told to ignore it. */
function occupy(ms: number, signal: AbortSignal, ignoreCancel = false): Promise<{ blockedMs: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve({ blockedMs: ms }), ms);
    if (ignoreCancel) return;
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new TetherError('CANCELLED', 'Block cancelled.', { started: true }));
    });
  });
}

/** The kit's call tools in JavaScript; the "block" waits on a timer, which to a client looks the same. */
function addKit(host: Host): void {
  const counters = new Map<string, number>();
  const increment = (key: string): number => {
    counters.set(key, (counters.get(key) ?? 0) + 1);
    return counters.get(key) as number;
  };
  const shared = z.object({ key: z.string().min(1), ms: z.number().int().min(0) });
  host
    .tool({
      name: KIT.block,
      description: 'Occupies the executor for ms milliseconds, stopping early when cancelled (unless ignoreCancel).',
      input: z.object({ ms: z.number().int().min(0), ignoreCancel: z.boolean().optional() }),
      execution: { longRunning: true, duplicates: 'allow' },
      handler: ({ ms, ignoreCancel }, context) => occupy(ms, context.signal, ignoreCancel),
    })
    .tool({
      name: KIT.count,
      description: 'Increments counter key.',
      input: z.object({ key: z.string().min(1) }),
      execution: { duplicates: 'allow' },
      handler: ({ key }) => ({ key, count: increment(key) }),
    })
    .tool({
      name: KIT.wait,
      description: 'Waits ms milliseconds beside the executor.',
      input: z.object({ ms: z.number().int().min(0) }),
      execution: { longRunning: true, mainThread: false, duplicates: 'allow' },
      handler: async ({ ms }) => ({ waitedMs: (await occupy(ms, new AbortController().signal, true)).blockedMs }),
    })
    .tool({
      name: KIT.attach,
      description: 'Counts key, then occupies the executor for ms; identical calls in flight attach.',
      input: shared,
      execution: { longRunning: true, duplicates: 'attach' },
      handler: async ({ key, ms }, context) => {
        const count = increment(key);
        return { key, count, ...(await occupy(ms, context.signal)) };
      },
    })
    .tool({
      name: KIT.reject,
      description: 'Counts key, then occupies the executor for ms; identical calls in flight are refused.',
      input: shared,
      execution: { longRunning: true, duplicates: 'reject' },
      handler: async ({ key, ms }, context) => {
        const count = increment(key);
        return { key, count, ...(await occupy(ms, context.signal)) };
      },
    })
    .tool({
      name: KIT.read,
      description: 'Reads counter key.',
      input: z.object({ key: z.string().min(1) }),
      annotations: { readOnlyHint: true },
      handler: ({ key }) => ({ key, count: counters.get(key) ?? 0 }),
    });
}

function run(subject: Subject, only?: string): Promise<ConformanceReport> {
  return runConformance({ project: subject.project, recordsDir: subject.recordsDir, ...(only ? { only } : {}) });
}

function byStatus(report: ConformanceReport, status: CheckResult['status']): string[] {
  return report.results.filter((r) => r.status === status).map((r) => r.id);
}

describe('conformance suite against SDK hosts', () => {
  it('skips the kit checks with the reason on a host without the kit, and passes the rest', async () => {
    const report = await run(await startHost());
    const needKit = CHECKS.filter((c) => (c.needs ?? []).length > 0).map((c) => c.id);
    expect(byStatus(report, 'skipped')).toEqual(CHECKS.filter((c) => needKit.includes(c.id) || UNLIMITED_HOST_SKIPS.includes(c.id)).map((c) => c.id));
    expect(report.results.filter((r) => needKit.includes(r.id)).every((r) => r.detail === KIT_MISSING_REASON)).toBe(true);
    const failed = report.results.filter((r) => r.status === 'failed').map(formatResult);
    expect(failed, failed.join('\n')).toEqual([]);
    expect(report.conformanceKit).toBe(false);
  });

  it('passes every check a JavaScript kit makes possible (no reload tool: the reload checks skip)', async () => {
    const report = await run(
      await startHost((options) => {
        const host = new Host(options);
        addKit(host);
        return host;
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map(formatResult);
    expect(failed, failed.join('\n')).toEqual([]);
    expect(byStatus(report, 'skipped')).toEqual(CHECKS.filter((c) => c.needs?.includes(KIT.reload) || UNLIMITED_HOST_SKIPS.includes(c.id)).map((c) => c.id));
    expect(report.results.filter((r) => r.status === 'skipped' && r.id !== 'connections.eviction').every((r) => r.detail === `the host's conformance kit lacks ${KIT.reload} (protocol.md §15)`)).toBe(
      true,
    );
  });

  it('fails the heartbeat check on a host that advertises a heartbeat it does not keep', async () => {
    class BoastfulHost extends Host {
      override helloResult(connectionId: string): HelloResult {
        return { ...super.helloResult(connectionId), heartbeatMs: 30 };
      }
    }
    const subject = await startHost((options) => {
      const host = new BoastfulHost(options);
      addKit(host);
      return host;
    });
    const report = await run(subject, 'progress.heartbeat');
    expect(report.results).toMatchObject([{ id: 'progress.heartbeat', status: 'failed' }]);
  });

  it('fails the pending-handshake check on a host that holds any number of connections waiting for their hello', async () => {
    const subject = await startHost(undefined, { ...FAST, maxPendingHandshakes: 1_000 });
    expect((await run(subject, 'security.waiting-connections')).results).toMatchObject([
      { id: 'security.waiting-connections', status: 'failed', detail: expect.stringContaining('the host kept the connection open') },
    ]);
  });

  it('skips the give-up check on a host whose hello does not say its deadlineGraceMs (an older host)', async () => {
    class OlderHost extends Host {
      override helloResult(connectionId: string): HelloResult {
        const { deadlineGraceMs: _omitted, ...older } = super.helloResult(connectionId);
        return older;
      }
    }
    const subject = await startHost((options) => {
      const host = new OlderHost(options);
      addKit(host);
      return host;
    });
    expect((await run(subject, 'deadline.give-up')).results).toMatchObject([{ id: 'deadline.give-up', status: 'skipped', detail: expect.stringContaining('does not advertise deadlineGraceMs') }]);
  });

  it('fails the record check on a host whose record others may read', async () => {
    const subject = await startHost();
    const record = recordPath(subject.recordsDir, subject.host.identity.instanceId);
    chmodSync(record, 0o644);
    expect((await run(subject, 'security.private-record')).results).toMatchObject([
      { id: 'security.private-record', status: 'failed', detail: expect.stringContaining('has mode 0644, so other users may read the token in it') },
    ]);
    chmodSync(record, 0o600);
    expect((await run(subject, 'security.private-record')).results).toMatchObject([{ status: 'passed' }]);
  });

  // Needs an address besides loopback to try the port on.
  const hasNetwork = Object.values(networkInterfaces()).some((entries) => entries?.some((entry) => entry.family === 'IPv4' && !entry.internal));
  it.skipIf(!hasNetwork)("fails the loopback check on a host whose port answers on the machine's other addresses", async () => {
    const subject = await startHost();
    // Every interface in front of the host, as a host listening on 0.0.0.0 would be; its record names that port.
    const sockets = new Set<Socket>();
    const open = createServer((socket) => {
      const upstream = connect(subject.host.port as number, '127.0.0.1');
      for (const end of [socket, upstream]) {
        sockets.add(end);
        end.on('error', () => undefined);
        end.once('close', () => (end === socket ? upstream : socket).destroy());
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => open.listen(0, '0.0.0.0', resolve));
    cleanups.push(() => {
      for (const socket of sockets) socket.destroy();
      open.close();
    });
    const path = recordPath(subject.recordsDir, subject.host.identity.instanceId);
    writePrivateFile(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), port: (open.address() as { port: number }).port }));
    expect((await run(subject, 'security.loopback-only')).results).toMatchObject([
      { id: 'security.loopback-only', status: 'failed', detail: expect.stringContaining('beyond loopback: listen on 127.0.0.1 only') },
    ]);
  });

  it('passes a host whose descriptors leave out their hints (a SHOULD: clients apply the defaults), and fails one whose hints are not objects', async () => {
    const subject = await startHost((options) => {
      const host = new Host(options);
      const bare = { name: 'bare', description: 'No hints at all', inputSchema: { type: 'object' } };
      host.addTool({ descriptor: bare as unknown as ToolDescriptor, validate: (args) => args, handler: () => 'ok' });
      return host;
    });
    expect((await run(subject, 'tools.list')).results).toMatchObject([{ id: 'tools.list', status: 'passed' }]);

    const wrong = await startHost((options) => {
      const host = new Host(options);
      const descriptor = { name: 'odd', description: 'Hints of the wrong kind', inputSchema: { type: 'object' }, annotations: {}, execution: {} };
      host.addTool({ descriptor: descriptor as unknown as ToolDescriptor, validate: (args) => args, handler: () => 'ok' });
      // addTool refuses such hints; a host of another make might send them, so they are spoilt after it, as tools/list sends the descriptor held.
      (descriptor as { execution: unknown }).execution = 'fast';
      return host;
    });
    expect((await run(wrong, 'tools.list')).results).toMatchObject([{ id: 'tools.list', status: 'failed', detail: expect.stringContaining('"odd": execution must be an object when sent') }]);
  });
});
