import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as realTimers from 'node:timers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Host, type HostOptions } from '../../src/host/index.js';
import { HostLink, type HostLinkOptions, type LinkState } from '../../src/link/host-link.js';
import { METHODS, SERVE_CLIENT_NAME, TetherError, type Bye, type HelloResult, type RpcConnection } from '../../src/protocol/index.js';
import { FakeHost, deferred, helloResult, isRequest, proofFor, recordStates, tempDir, waitForState, type FakeBehaviour } from './fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Workspace {
  recordsDir: string;
  projectPath: string;
}

function workspace(): Workspace {
  const { dir, remove } = tempDir('tether-link-');
  cleanups.push(remove);
  const projectPath = join(dir, 'project');
  mkdirSync(projectPath);
  return { recordsDir: join(dir, 'hosts'), projectPath };
}

async function startHost(ws: Workspace, options: Partial<HostOptions> = {}, configure: (host: Host) => void = () => undefined): Promise<Host> {
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: ws.projectPath, recordsDir: ws.recordsDir, ...options });
  configure(host);
  await host.start();
  cleanups.push(() => host.close());
  return host;
}

async function startFake(ws: Workspace, behaviour?: FakeBehaviour): Promise<FakeHost> {
  const fake = await new FakeHost(ws.projectPath, behaviour).start();
  cleanups.push(() => fake.close());
  return fake;
}

/** A link (not started yet, so the test can listen first); closed after the test. */
function makeLink(ws: Workspace, options: HostLinkOptions = {}): HostLink {
  const link = new HostLink({ recordsDir: ws.recordsDir, project: ws.projectPath, ...options });
  cleanups.push(() => link.close());
  return link;
}

/** Resolves with the link's next 'connected' event and when it happened. */
function nextConnected(link: HostLink): Promise<{ hello: HelloResult; at: number; wall: number }> {
  return new Promise((resolve) => link.once('connected', (hello) => resolve({ hello, at: performance.now(), wall: Date.now() })));
}

/** Bounded on the real clock, also while a test runs on vitest's fake one (which fakes only the globals, not node:timers). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = realTimers.setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => realTimers.clearTimeout(timer));
}

/**
 * Lets `ms` pass on vitest's fake clock, a few milliseconds at a time; a connection attempt the
 * clock starts runs to its end on real sockets (taking no fake time) before the clock moves on.
 */
async function onFakeClock(link: HostLink, ms: number, stepMs = 5): Promise<void> {
  const attemptEnded = (): Promise<void> =>
    new Promise((resolve) => {
      const onState = (state: LinkState): void => {
        if (state === 'connecting') return;
        link.off('state', onState);
        resolve();
      };
      link.on('state', onState);
    });
  for (let elapsed = 0; ; elapsed += stepMs) {
    if (link.state === 'connecting') await attemptEnded();
    if (elapsed >= ms) return;
    vi.advanceTimersByTime(stepMs);
  }
}

/** No retry during the test unless the record changes. */
const NO_RETRY = { backoff: { initialMs: 120_000, maxMs: 120_000 }, pollMs: 120_000 } satisfies HostLinkOptions;

describe('HostLink against a real Host', () => {
  it('connects via the host record: connecting → authenticated, and request() works', async () => {
    const ws = workspace();
    const host = await startHost(ws, {}, (h) => h.tool({ name: 'add', description: 'Adds', input: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => ({ sum: a + b }) }));
    const link = makeLink(ws);
    const states = recordStates(link);
    expect(link.state).toBe('idle');
    const connected = nextConnected(link);
    link.start();
    const { hello } = await connected;
    expect(states).toEqual(['connecting', 'authenticated']);
    expect(link.state).toBe('authenticated');
    expect(hello.host.instanceId).toBe(host.identity.instanceId);
    expect(link.record).toMatchObject({ instanceId: host.identity.instanceId, port: host.port });
    expect(link.hello?.connectionId).toBe(hello.connectionId);
    const { tools } = await link.request<{ tools: Array<{ name: string }> }>(METHODS.toolsList, undefined, 1_000);
    expect(tools.map((t) => t.name)).toEqual(['add']);
    const call = await link.request<{ result: { structuredContent: unknown } }>(METHODS.callStart, { callId: 'k1', tool: 'add', arguments: { a: 2, b: 40 } }, 1_000);
    expect(call.result.structuredContent).toEqual({ sum: 42 });
    expect(host.connectionCount).toBe(1);
  });

  it('with no wait at all, still reaches a running editor, and refuses at once when none runs', async () => {
    const ws = workspace();
    const absent = makeLink(ws).start();
    await expect(absent.connection(0)).rejects.toMatchObject({ code: 'HOST_NOT_FOUND' });
    await startHost(ws);
    // A fresh link: its first attempt is under way, and a wait of 0 lets it end.
    const link = makeLink(ws).start();
    expect(link.state).toBe('connecting');
    // Not yet authenticated: there is no connection to have without waiting.
    expect(link.openConnection()).toBeUndefined();
    const rpc = await link.connection(0);
    expect(rpc.isOpen).toBe(true);
    // Authenticated: the same connection, without a promise.
    expect(link.openConnection()).toBe(rpc);
  });

  it('a closed link refuses requests with CONNECTION_CLOSED and the host sees it hang up', async () => {
    const ws = workspace();
    const host = await startHost(ws);
    const link = makeLink(ws);
    const connected = nextConnected(link);
    link.start();
    await connected;
    expect(link.openConnection()?.isOpen).toBe(true);
    link.close();
    expect(link.state).toBe('closed');
    expect(link.openConnection()).toBeUndefined();
    await expect(link.request(METHODS.toolsList, undefined, 1_000)).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect.poll(() => host.connectionCount).toBe(0);
  });

  it('host quits → lost; a new host for the project (new record) → reconnects at once via the watcher', async () => {
    const ws = workspace();
    const first = await startHost(ws);
    // No backoff retry and no poll within the test: only the fs watcher can bring it back fast.
    const link = makeLink(ws, NO_RETRY);
    const up = nextConnected(link);
    link.start();
    await up;
    const lost = waitForState(link, 'lost');
    await first.close({ reason: 'quit' });
    await lost;
    expect(link.lastFailure?.message).toMatch(/quitting/);
    expect(existsSync(first.recordPath)).toBe(false);
    await expect(link.connection(0)).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE' });

    const back = nextConnected(link);
    const second = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: ws.projectPath, recordsDir: ws.recordsDir });
    cleanups.push(() => second.close());
    await second.start();
    const startedAt = performance.now();
    const written = statSync(second.recordPath).mtimeMs;
    const { hello, at, wall } = await within(back, 2_000, 'reconnect');
    const sinceWrite = wall - written;
    const sinceStart = at - startedAt;
    console.info(`[measure] reconnect: record written → 'connected' ${sinceWrite.toFixed(1)} ms (start() resolved → connected ${sinceStart.toFixed(1)} ms)`);
    expect(hello.host.instanceId).toBe(second.identity.instanceId);
    expect(link.state).toBe('authenticated');
    expect(sinceWrite).toBeLessThan(200);
    await expect(link.request(METHODS.toolsList, undefined, 500)).resolves.toEqual({ tools: [] });
  });

  it("without --project, stays with the project of the first editor it reached: another project's editor is never taken for it", async () => {
    const a = workspace();
    const b = { recordsDir: a.recordsDir, projectPath: join(a.projectPath, '..', 'other') };
    mkdirSync(b.projectPath);
    const first = await startHost(a);
    // Chosen as "the only one running", as `tether mcp` started outside any project would.
    const link = makeLink(a, { ...NO_RETRY, project: undefined, cwd: '/' });
    const up = nextConnected(link);
    link.start();
    expect((await up).hello.host.projectPath).toBe(a.projectPath);

    // B's editor starts, then A's crashes: B is now the only one running.
    await startHost(b);
    const lost = waitForState(link, 'lost');
    await first.close({ reason: 'quit' });
    await lost;
    const refused = await link.connection(1_000).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TetherError);
    expect((refused as TetherError).code).toBe('HOST_UNAVAILABLE');
    expect(link.state).not.toBe('authenticated');
    expect(link.lastFailure).toMatchObject({ code: 'HOST_NOT_FOUND', data: { boundProject: a.projectPath } });
    expect(link.lastFailure?.message).toContain(`stays with the project of the first editor it reached (${a.projectPath})`);

    // A's editor back: the link returns to it.
    const back = nextConnected(link);
    await startHost(a);
    expect((await within(back, 2_000, 'reconnect to A')).hello.host.projectPath).toBe(a.projectPath);
  });

  it('reload: bye(reload) → reloading (not lost); the host back with the same identity → authenticated', async () => {
    const ws = workspace();
    const identity = { instanceId: randomUUID(), token: `tok-${randomUUID()}` };
    const before = await startHost(ws, identity);
    const link = makeLink(ws);
    const up = nextConnected(link);
    link.start();
    await up;
    const states = recordStates(link);
    const reloading = new Promise<TetherError | undefined>((resolve) => link.on('state', (s, d) => s === 'reloading' && resolve(d.error)));
    const closing = before.close({ reason: 'reload', expectedBackMs: 100 });
    await within(reloading, 1_000, 'reloading');
    await closing;
    expect(states[0]).toBe('reloading');
    expect(existsSync(before.recordPath)).toBe(true); // a reload keeps the record
    await expect(link.connection(0)).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE', data: { state: 'reloading' } });

    const back = nextConnected(link);
    const after = await startHost(ws, identity);
    const { hello } = await within(back, 1_000, 'reconnect after reload');
    expect(hello.host.instanceId).toBe(identity.instanceId);
    expect(link.state).toBe('authenticated');
    expect(states).not.toContain('lost');
    expect(states.at(-1)).toBe('authenticated');
    expect(after.connectionCount).toBe(1);
    await expect(link.request(METHODS.toolsList, undefined, 500)).resolves.toEqual({ tools: [] });
  });

  it('eviction of tether serve: told how to come back, not to use tether serve', async () => {
    const ws = workspace();
    await startHost(ws, { maxConnections: 1 });
    const serve = makeLink(ws, { clientName: SERVE_CLIENT_NAME });
    const up = nextConnected(serve);
    serve.start();
    await up;
    const evicted = new Promise<Bye>((resolve) => serve.once('evicted', resolve));
    makeLink(ws, { clientName: 'tether-call', ...NO_RETRY }).start();
    const { message } = await evicted;
    expect(message).toContain('Another client (tether-call)');
    expect(message).toContain('then restart this one (or the editor).');
    expect(message).not.toContain('through one "tether serve"');
  });

  it('eviction: with maxConnections 1 a second link evicts the first, which hears why', async () => {
    const ws = workspace();
    // No pings from the host: the fake clock below runs faster than answers on real sockets come.
    const host = await startHost(ws, { maxConnections: 1, pingIntervalMs: 0 });
    // Default backoff: an evicted link that came back at once would evict B in turn.
    const a = makeLink(ws, { clientName: 'agent-a' });
    const aUp = nextConnected(a);
    a.start();
    await aUp;
    const aStates = recordStates(a);
    const evicted = new Promise<Bye>((resolve) => a.once('evicted', resolve));
    const aLost = new Promise<{ error: TetherError | undefined; failure: TetherError | undefined }>((resolve) =>
      a.on('state', (s, d) => s === 'lost' && resolve({ error: d.error, failure: a.lastFailure })),
    );
    // B does not ping either within the test, for the same reason.
    const b = makeLink(ws, { clientName: 'agent-b', ...NO_RETRY, pingIntervalMs: 600_000 });
    const bUp = nextConnected(b);
    // From before the eviction, so that whatever timer A sets as it is evicted (none) runs on the
    // fake clock: "A stays away" is then checked over any length of A's time, not over a sleep.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    cleanups.push(() => void vi.useRealTimers());
    const t0 = performance.now();
    b.start();
    const bye = await within(evicted, 1_000, "link A's 'evicted'");
    const took = performance.now() - t0;
    expect(took).toBeLessThan(1_000);
    expect(bye).toMatchObject({
      reason: 'evicted',
      status: 'evicted',
      newClientEndpoint: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
      message: expect.stringContaining('agent-b'),
    });
    expect(bye.message).toMatch(/evicted/);
    expect(bye.message).toContain(
      'close the other client or raise the host\'s connection limit, then restart this one (or the editor). To use several agents at once, connect them through one "tether serve"',
    );
    const { error, failure } = await within(aLost, 1_000, "link A 'lost'");
    expect(error?.code).toBe('EVICTED');
    expect(failure?.code).toBe('EVICTED');
    expect(failure?.data).toMatchObject({ newClientEndpoint: bye.newClientEndpoint });
    expect(a.lastFailure?.code).toBe('EVICTED');
    await bUp;
    expect(b.state).toBe('authenticated');
    expect(host.connectionCount).toBe(1);
    // A stays away (no eviction ping-pong) and says why on every request.
    const bStates = recordStates(b);
    await expect(a.connection(1_000)).rejects.toMatchObject({ code: 'EVICTED' });
    // A minute of A's time, a dozen times its longest backoff (5 s): a retry, however late, has come.
    await onFakeClock(a, 60_000, 50);
    vi.useRealTimers();
    expect(aStates).toEqual(['lost']); // never 'connecting' again: no attempt reached the host
    expect(bStates).toEqual([]);
    expect(a.state).toBe('lost');
    expect(host.connectionCount).toBe(1);
  });

  it('a wrong token in the record: lost with UNAUTHORIZED', async () => {
    const ws = workspace();
    const host = await startHost(ws, { advertise: false });
    const fake = new FakeHost(ws.projectPath);
    fake.port = host.port as number; // a record for the real host, with a token that is not its own
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const lost = new Promise<TetherError | undefined>((resolve) => link.on('state', (s, d) => s === 'lost' && resolve(d.error)));
    link.start();
    const error = await within(lost, 2_000, 'lost');
    expect(error?.code).toBe('UNAUTHORIZED');
    expect(link.lastFailure?.code).toBe('UNAUTHORIZED');
    expect(host.connectionCount).toBe(0);
  });
});

/** A fake host that answers the hello and says `bye` in the same write, then hangs up. */
function startByeWithHelloFake(ws: Parameters<typeof startFake>[0], bye: Record<string, unknown>): ReturnType<typeof startFake> {
  return startFake(ws, (message, connection, host) => {
    if (!isRequest(message) || message.method !== METHODS.hello) return;
    connection.send(
      { jsonrpc: '2.0', id: message.id, result: { ...helloResult(host.instanceId, host.projectPath), ...proofFor(message, host.token) } },
      { jsonrpc: '2.0', method: METHODS.bye, params: bye },
    );
    connection.socket.end();
  });
}

describe('HostLink against hand-made hosts', () => {
  it("names the field a host's handshake answer gets wrong, for whoever implements the host", async () => {
    const ws = workspace();
    const fake = await startFake(ws, (message, connection, host) => {
      if (!isRequest(message) || message.method !== 'tether/hello') return;
      const { capabilities: _left, ...result } = { ...helloResult(host.instanceId, host.projectPath), ...proofFor(message, host.token) };
      connection.send({ jsonrpc: '2.0', id: message.id, result });
    });
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const lost = waitForState(link, 'lost');
    link.start();
    await lost;
    expect(link.lastFailure).toMatchObject({ code: 'INVALID_REQUEST', data: { field: 'capabilities' } });
    expect(link.lastFailure?.message).toContain('unexpected shape (capabilities: ');
    expect(link.lastFailure?.message).toContain('protocol.md §6.2');
  });

  it('THE HANDSHAKE RACE: hello reply and bye in one write, then EOF → lost, never authenticated on a dead socket', async () => {
    const ws = workspace();
    const bye = { reason: 'shutdown', message: 'Shutting down right after the handshake.', at: Date.now() };
    const fake = await startByeWithHelloFake(ws, bye);
    fake.writeRecord(ws.recordsDir);
    // No pings either: a failed ping must not be what rescues a link stuck on a dead socket.
    const link = makeLink(ws, { ...NO_RETRY, pingIntervalMs: 120_000 });
    const states = recordStates(link);
    const accepted = fake.nextConnection();
    link.start();
    const connection = await accepted;
    await connection.closed;
    await within(waitForState(link, 'lost'), 300, 'lost after the socket closed');
    expect(link.state).toBe('lost');
    expect(states.at(-1)).toBe('lost');
    expect(link.hello).toBeUndefined();
    await expect(link.connection(0)).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE', data: { state: 'lost' } });
    // Nothing brings it back to "authenticated" afterwards on its own (no new record, no retry due).
    await new Promise((resolve) => setImmediate(resolve));
    expect(link.state).toBe('lost');
    expect(fake.connections).toHaveLength(1);
  });

  it('THE HANDSHAKE RACE, repeated: every connection of a host that accepts and says bye at once ends lost', async () => {
    const ws = workspace();
    const fake = await startFake(ws, (message, connection, host) => {
      if (!isRequest(message) || message.method !== METHODS.hello) return;
      connection.send(
        { jsonrpc: '2.0', id: message.id, result: { ...helloResult(host.instanceId, host.projectPath), ...proofFor(message, host.token) } },
        { jsonrpc: '2.0', method: METHODS.bye, params: { reason: 'quit', message: 'bye', at: Date.now() } },
      );
      // Alternate a graceful end and an abrupt reset.
      if (connection.index % 2 === 0) connection.socket.end();
      else connection.socket.resetAndDestroy();
    });
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, { backoff: { initialMs: 10, maxMs: 20 }, pollMs: 120_000, pingIntervalMs: 120_000 });
    let lostCount = 0;
    const fiveLost = deferred();
    link.on('state', (s) => {
      if (s === 'lost' && ++lostCount === 5) fiveLost.resolve();
    });
    link.start();
    await within(fiveLost.promise, 3_000, 'five rounds');
    link.close();
    // Every connection the link opened was closed; none is left authenticated.
    await Promise.all(fake.connections.map((c) => c.closed));
    expect(fake.connections.length).toBeGreaterThanOrEqual(5);
  });

  it('HALF-OPEN: a host that goes silent after the handshake is lost within ~2 s (default ping settings)', async () => {
    const ws = workspace();
    const fake = await startFake(ws); // answers the handshake, then swallows everything (pings included)
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const up = nextConnected(link);
    link.start();
    const { at: lastExchange } = await up;
    const lostAt = await waitForState(link, 'lost', 4_000);
    const took = lostAt - lastExchange;
    console.info(`[measure] half-open detection: last exchange → 'lost' ${took.toFixed(0)} ms`);
    expect(took).toBeLessThanOrEqual(2_250);
    expect(took).toBeGreaterThanOrEqual(1_000); // it was the ping timeout, not something else
    expect(link.lastFailure?.message).toMatch(/stopped answering pings/);
    expect(fake.connections[0]!.received.filter((m) => 'method' in m && m.method === METHODS.ping).length).toBeGreaterThanOrEqual(1);
    // The link let go of the socket it gave up on.
    await within(fake.connections[0]!.closed, 3_000, 'the link closing the half-open socket');
  });

  it('a blocked host is not dead: pings answered after 400 ms keep it authenticated for 3 s', async () => {
    const ws = workspace();
    const timers = new Set<NodeJS.Timeout>();
    cleanups.push(() => timers.forEach((t) => clearTimeout(t)));
    let pings = 0;
    let lateAnswers = 0;
    const fourthLateAnswer = deferred();
    const fake = await startFake(
      ws,
      FakeHost.answerHello((message, connection) => {
        if (!isRequest(message)) return;
        const answer = (): void => connection.send({ jsonrpc: '2.0', id: message.id, result: message.method === METHODS.ping ? {} : { echoed: message.method } });
        if (message.method !== METHODS.ping) return answer();
        pings++;
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
          if (++lateAnswers === 4) fourthLateAnswer.resolve();
        }, 400);
        timers.add(timer);
      }),
    );
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const up = nextConnected(link);
    link.start();
    await up;
    const changes = recordStates(link);
    // Four pings (one every 700 ms), each answered 400 ms late: over 3 s of a blocked host, as
    // the link lived it, however slowly a loaded machine runs the timers. A change of state
    // ends the wait at once, for the assertion below to report.
    link.once('state', () => fourthLateAnswer.resolve());
    await within(fourthLateAnswer.promise, 15_000, 'the fourth late ping answer');
    expect(changes).toEqual([]);
    expect(link.state).toBe('authenticated');
    expect(pings).toBeGreaterThanOrEqual(4);
    await expect(link.request('test/echo', {}, 100)).resolves.toEqual({ echoed: 'test/echo' });
  });

  it('a wrong token does not hammer the host: a handful of attempts in 1.5 s with initialMs 100', async () => {
    const ws = workspace();
    const fake = await startFake(ws, (message, connection) => {
      if (!isRequest(message)) return;
      const error = new TetherError('UNAUTHORIZED', 'Wrong token.');
      connection.send({ jsonrpc: '2.0', id: message.id, error: error.toWire() });
      connection.socket.end();
    });
    fake.writeRecord(ws.recordsDir, { token: 'not-the-token' });
    const link = makeLink(ws, { backoff: { initialMs: 100 } });
    const failures: string[] = [];
    link.on('state', (s, d) => s === 'lost' && failures.push(d.error?.code ?? '?'));
    // On a fake clock, so the count measures the backoff, not how busy the machine is.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      link.start();
      await onFakeClock(link, 1_500);
    } finally {
      vi.useRealTimers();
    }
    const attempts = fake.connections.length;
    console.info(`[measure] wrong token: ${attempts} connection attempts in 1.5 s`);
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(7);
    expect(new Set(failures)).toEqual(new Set(['UNAUTHORIZED']));
    expect(link.lastFailure?.code).toBe('UNAUTHORIZED');
    // A proof of the token it read, never the token itself.
    expect(fake.connections[0]!.received[0]).toMatchObject({ method: METHODS.hello, params: { proof: { nonce: expect.any(String), mac: expect.any(String) } } });
    expect(JSON.stringify(fake.connections[0]!.received)).not.toContain('not-the-token');
  });

  it('sockets killed mid-request: pending requests reject with CONNECTION_CLOSED and nothing goes unhandled', async () => {
    const ws = workspace();
    const uncaught = vi.fn();
    const unhandled = vi.fn();
    process.on('uncaughtException', uncaught);
    process.on('unhandledRejection', unhandled);
    cleanups.push(() => {
      process.off('uncaughtException', uncaught);
      process.off('unhandledRejection', unhandled);
    });
    const fake = await startFake(
      ws,
      FakeHost.answerHello((message, connection) => {
        if (!isRequest(message)) return;
        if (message.method === 'test/kill') {
          // Half a response frame first, so the link's decoder holds a partial frame when the socket dies.
          connection.socket.write('Content-Length: 100\r\n\r\n{"jsonrpc":"2.0",');
          if (connection.index % 2 === 0) connection.socket.resetAndDestroy();
          else connection.socket.destroy();
        }
        // Everything else stays unanswered.
      }),
    );
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, { backoff: { initialMs: 10, maxMs: 20 }, pollMs: 120_000 });
    link.start();
    const outcomes: Array<Promise<unknown>> = [];
    for (let round = 0; round < 6; round++) {
      const rpc: RpcConnection = await link.connection(3_000);
      const pending = Array.from({ length: 5 }, (_, i) => link.request(`test/slow-${i}`, { round }, 1_000));
      const closed = new Promise<void>((resolve) => rpc.onClose(() => resolve()));
      pending.push(rpc.request('test/kill'));
      // Keep writing while the socket dies under the link: requests, notifications, pings.
      const flood = (async () => {
        while (rpc.isOpen) {
          outcomes.push(rpc.request('test/flood', { round }).catch((e: unknown) => e));
          rpc.notify('test/note', { round });
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const settled = await Promise.allSettled(pending);
      await closed;
      await flood;
      for (const outcome of settled) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'CONNECTION_CLOSED' });
      }
    }
    for (const outcome of await Promise.all(outcomes)) expect(outcome).toMatchObject({ code: 'CONNECTION_CLOSED' });
    expect(fake.connections.length).toBeGreaterThanOrEqual(6);
    // Give any late socket error a turn of the event loop to surface before checking.
    await new Promise((resolve) => setImmediate(resolve));
    expect(uncaught).not.toHaveBeenCalled();
    expect(unhandled).not.toHaveBeenCalled();
  });
});

/*
 * Defects in src/link/host-link.ts, pinned with it.fails (each passes once fixed):
 *
 * 1. `attempt()` clears `lastBye` AFTER connectToHost() resolves. A bye that arrived in the
 *    same chunk as the handshake reply has already been recorded by then, so it is erased:
 *    the link still ends "lost" (good), but a reload bye sends it to "lost" + backoff instead
 *    of "reloading", and lastFailure says "The host closed the connection." instead of the
 *    host's own message.
 * 2. Nothing clears `lastBye` when a new attempt starts, so a bye from a connection that no
 *    longer exists decides the fate of later failed attempts: after bye(reload) a host that
 *    never returns keeps the link cycling connecting → reloading every expectedBackMs forever,
 *    never "lost", never backing off (and after bye(quit/evicted), a later connect failure is
 *    reported as that old bye).
 *    Clearing lastBye at the start of attempt() instead of after the handshake fixes 1 and 2.
 * 3. `onRecordsChanged()` only acts in lost/reloading: a record written while the link is
 *    "connecting" (e.g. to a hung or vanished host) is dropped, and the link then waits for
 *    the full backoff (up to maxMs, 5 s by default) or the poll, although a fresh record is there.
 */
describe('HostLink: bye bookkeeping and record changes (defects found)', () => {
  it('a reload bye in the same chunk as the handshake reply makes the link "reloading", carrying the bye', async () => {
    const ws = workspace();
    const bye = { reason: 'reload', message: 'Reloading the code domain.', expectedBackMs: 60_000, at: Date.now() };
    const fake = await startByeWithHelloFake(ws, bye);
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const states = recordStates(link);
    const accepted = fake.nextConnection();
    link.start();
    await (
      await accepted
    ).closed;
    await within(
      new Promise<void>((resolve) => {
        const check = (): void => void ((link.state === 'lost' || link.state === 'reloading') && resolve());
        check();
        link.on('state', check);
      }),
      1_000,
      'the link to give the connection up',
    );
    expect(states.at(-1)).toBe('reloading');
  });

  it('a shutdown bye in the same chunk as the handshake reply is what lastFailure reports', async () => {
    const ws = workspace();
    const bye = { reason: 'shutdown', message: 'The host is shutting down (race).', at: Date.now() };
    const fake = await startByeWithHelloFake(ws, bye);
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const accepted = fake.nextConnection();
    link.start();
    await (
      await accepted
    ).closed;
    await within(waitForState(link, 'lost'), 1_000, 'lost');
    expect(link.lastFailure?.message).toBe(bye.message);
  });

  it('after a reload bye, a host that never comes back ends "lost" with backoff, not "reloading" forever', async () => {
    const ws = workspace();
    const fake = await startFake(ws);
    fake.writeRecord(ws.recordsDir);
    const link = makeLink(ws, { backoff: { initialMs: 100, maxMs: 5_000 }, pollMs: 120_000 });
    const accepted = fake.nextConnection();
    const up = nextConnected(link);
    link.start();
    const connection = await accepted;
    await up;
    // The host announces a reload, then dies for good: its port refuses, its record lingers.
    connection.send({ jsonrpc: '2.0', method: METHODS.bye, params: { reason: 'reload', message: 'Reloading.', expectedBackMs: 50, at: Date.now() } });
    const states = recordStates(link);
    await fake.close();
    await within(waitForState(link, 'reloading'), 1_000, 'reloading');
    await within(waitForState(link, 'lost'), 1_000, 'lost after the reload did not come back');
    expect(link.lastFailure?.message).toMatch(/ECONNREFUSED|Could not connect/);
    expect(states.filter((s) => s === 'connecting').length).toBeLessThan(10);
  });

  it('a record that changes while the link is connecting is not missed', async () => {
    const ws = workspace();
    // A host that accepts but never answers the handshake (a hung editor).
    const hung = await startFake(ws, () => undefined);
    hung.writeRecord(ws.recordsDir, { startedAt: '2020-01-01T00:00:00.000Z' });
    const link = makeLink(ws, { ...NO_RETRY, connectTimeoutMs: 300 });
    const hello = new Promise<void>((resolve) => hung.nextConnection().then((c) => c.socket.once('data', () => resolve())));
    const back = nextConnected(link);
    link.start();
    await hello;
    expect(link.state).toBe('connecting');
    // While the link waits on the hung host, a healthy host for the project advertises itself.
    const healthy = await startHost(ws);
    const { hello: result } = await within(back, 1_000, 'connecting to the host whose record appeared while connecting');
    expect(result.host.instanceId).toBe(healthy.identity.instanceId);
  });
});

describe("HostLink and a program that holds the editor's port", () => {
  it('does not take an "evicted" from it, sent before any handshake, as the editor\'s: the editor back is connected', async () => {
    const ws = workspace();
    const instanceId = `editor-${randomUUID()}`;
    // It says "evicted" the moment it is spoken to, and hangs up, proving nothing.
    const impostor = await startFake(ws, (message, connection) => {
      if (!isRequest(message)) return;
      connection.send({ jsonrpc: '2.0', method: METHODS.bye, params: { reason: 'evicted', status: 'evicted', message: 'Another client connected.', at: Date.now() } });
      connection.socket.end();
    });
    impostor.writeRecord(ws.recordsDir, { instanceId, auth: 'proof' });
    const link = makeLink(ws, NO_RETRY);
    link.start();
    await within(waitForState(link, 'lost'), 2_000, 'lost after the impostor hung up');
    expect(link.lastFailure?.code).not.toBe('EVICTED');
    // The editor itself comes back (same instance, as after a reload) and rewrites its record.
    const back = nextConnected(link);
    await impostor.close();
    const editor = await startHost(ws, { instanceId });
    const { hello } = await within(back, 3_000, 'connecting to the editor once its record changed');
    expect(hello.host.instanceId).toBe(editor.identity.instanceId);
  });

  it('never sends it the token, and does not take it for the editor when it cannot prove it knows the token', async () => {
    const ws = workspace();
    // Whatever listens where the record points (a port taken while the editor reloaded): it
    // answers the hello with a well-formed result, but it cannot know the editor's token.
    const impostor = await startFake(ws, (message, connection, host) => {
      if (isRequest(message) && message.method === METHODS.hello) connection.send({ jsonrpc: '2.0', id: message.id, result: helloResult(host.instanceId, host.projectPath) });
    });
    impostor.writeRecord(ws.recordsDir);
    const link = makeLink(ws, NO_RETRY);
    const states = recordStates(link);
    const hello = impostor.nextConnection();
    link.start();
    const connection = await hello;
    await within(waitForState(link, 'lost'), 2_000, 'lost after the impostor answered');
    expect(link.lastFailure?.code).toBe('HOST_UNVERIFIED');
    expect(states).not.toContain('authenticated');
    // What it received proves nothing it could reuse: no token, a proof bound to a fresh nonce.
    expect(JSON.stringify(connection.received)).not.toContain(impostor.token);
    expect(connection.received[0]).toMatchObject({ method: 'tether/hello', params: { proof: { nonce: expect.any(String), mac: expect.any(String) } } });
    expect(connection.received).toHaveLength(1); // nothing else: no calls, no requests
  });
});
