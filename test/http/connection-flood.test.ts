/**
 * Review finding: anyone on the machine could shut every client out of `tether serve` without
 * the token. Connections that sent nothing, or half a request line, held a descriptor for
 * 60-90 s (Node's defaults); two processes opened 21,000 of them, the server reached its
 * descriptor limit and refused every agent for as long as the attack lasted.
 *
 * Now a connection must bring a request that passes the token check within the header timeout,
 * past a cap on such connections the oldest goes, and one refused before the token check is
 * closed: the flood below, under the common limit of 1,024 descriptors, is shed while the agent
 * is answered. Connections that did pass the check are not timed: a stream an agent listens
 * on and a call's answer take as long as they take. (test/slow/ floods with 20,000.)
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildLog, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, openRawSession, startServe, type Served } from '../helpers/serve.js';
import { connectionFlood, descriptors, percentile, stopFloods } from './connection-flood-scenario.js';

afterEach(async () => {
  await stopFloods();
  await closeHttpClients();
  await cleanupProcesses();
});

const CAP = 64;
const HEADER_TIMEOUT_MS = 1_000;
const ATTACKER_WINDOW = 256;

/** A raw connection to the server, and a promise of its end and of everything the server sent on it. */
function rawConnection(served: Served): Promise<{ socket: Socket; closed: Promise<string> }> {
  const url = new URL(served.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done(text))) });
    });
    socket.once('error', reject);
  });
}

describe.skipIf(process.platform !== 'linux')('tether serve, flooded by strangers with connections that never finish a request', () => {
  it('sheds 2,000 of them under a 1,024-descriptor limit while an agent keeps getting answers, and keeps no descriptor of theirs', async () => {
    const served = await startServe(createWorkspace(), ['--header-timeout-ms', String(HEADER_TIMEOUT_MS), '--max-unauthenticated-connections', String(CAP)]);
    const session = await openRawSession(served);
    const outcome = await connectionFlood(served, session, {
      connections: 2_000,
      attackers: 1,
      holdMs: 10_000,
      window: ATTACKER_WINDOW,
      serveDescriptorLimit: 1_024,
      settleWithinMs: HEADER_TIMEOUT_MS + 3_000,
    });

    expect(outcome.attackers[0]!.opened).toBe(2_000);
    // While the attacker still held what it opened, the server let go of all of it within the header timeout.
    expect(outcome.settledMs).toBeDefined();
    // The agent was answered throughout, promptly.
    expect(outcome.failures).toEqual([]);
    expect(outcome.latencies.length).toBeGreaterThanOrEqual(5);
    expect(percentile(outcome.latencies, 95)).toBeLessThan(500);
    // What strangers held at once: the cap, plus what arrived since the last check (at most the attacker's window).
    expect(outcome.peakFds - outcome.baselineFds).toBeLessThanOrEqual(CAP + ATTACKER_WINDOW + 16);
    await expect.poll(() => descriptors(served.server.pid)).toBeLessThanOrEqual(outcome.baselineFds);
  });

  it('closes a connection whose request was refused before the token check, and one that brought no request in time', async () => {
    const served = await startServe(createWorkspace(), ['--header-timeout-ms', String(HEADER_TIMEOUT_MS)]);
    const { hostname, port } = new URL(served.url);

    // A 401 asks for no keep-alive: the server closes after answering, though HTTP/1.1 would keep it.
    const refused = await rawConnection(served);
    refused.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`);
    const answer = await refused.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);

    // A preflight needs no token, but does not make the connection one that passed the check.
    const preflighted = await rawConnection(served);
    const opened = performance.now();
    preflighted.socket.write(`OPTIONS /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nOrigin: http://localhost\r\nAccess-Control-Request-Method: POST\r\n\r\n`);
    expect(await preflighted.closed).toMatch(/^HTTP\/1\.1 204 /);
    // Closed at the header timeout from its opening, not kept alive (Node's keep-alive is 5 s).
    expect(performance.now() - opened).toBeGreaterThanOrEqual(HEADER_TIMEOUT_MS - 50);
    expect(performance.now() - opened).toBeLessThan(HEADER_TIMEOUT_MS + 1_500);

    // Half a request line, then nothing: closed at the header timeout, not Node's 60 s.
    const slow = await rawConnection(served);
    slow.socket.write('POST /mcp HTT');
    const started = performance.now();
    await slow.closed;
    expect(performance.now() - started).toBeLessThan(HEADER_TIMEOUT_MS + 1_500);
  });

  it('leaves authenticated connections untimed: a listening stream and a call outlast the header timeout many times over', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '2', '--heartbeat-ms', '200']);
    const served = await startServe(workspace, ['--header-timeout-ms', '300', '--max-unauthenticated-connections', '1']);
    const session = await openRawSession(served);
    // The session's own GET stream, opened on a connection of its own.
    const stream = await fetch(served.url, { method: 'GET', headers: { ...session, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    let streamEnded = false;
    const reader = stream.body!.getReader();
    void reader.closed.then(
      () => (streamEnded = true),
      () => (streamEnded = true),
    );

    const { client } = await connectHttp(served);
    let progress = 0;
    const result = await client.callTool({ name: 'build_player', arguments: {} }, { onprogress: () => void progress++ });
    expect(result.isError).toBeFalsy();
    expect(progress).toBeGreaterThan(0);
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
    // Two seconds of build, more than six header timeouts: the stream is still open.
    expect(streamEnded).toBe(false);
    await reader.cancel();
  });
});
