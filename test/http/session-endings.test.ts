/**
 * How `tether serve`'s sessions end, seen by their clients: a session whose stream dropped
 * while a call runs is neither evicted nor reaped (its client resumes the answer), and a
 * client coming back to a session that did end is told why. Real server, sandbox and
 * requests; the server's log lines are the events waited on, and the build log on disk says
 * what the editor did.
 */
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/index.js';
import { TETHER_BIN, buildLog, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox } from '../helpers/processes.js';
import { callThenDrop, openRawSession, resumeStream, startServe, type Served } from '../helpers/serve.js';

const hosts: Host[] = [];
afterEach(async () => {
  await cleanupProcesses();
  for (const host of hosts.splice(0)) await host.close();
});

const EPHEMERAL = { 'x-tether-pool': 'ephemeral' };

/** Resolves when the server has seen this session's stream close before its end. */
function streamDropped(served: Served, session: Record<string, string>): Promise<string> {
  return served.server.waitForStderrLine((line) => line.includes('stream closed by the client') && line.includes(session['mcp-session-id']!));
}

/** Resolves when the registry has ended this session, for this reason. */
function sessionEnded(served: Served, session: Record<string, string>, reason: string): Promise<string> {
  return served.server.waitForStderrLine((line) => line.includes('"session-ended"') && line.includes(session['mcp-session-id']!) && line.includes(`"reason":"${reason}"`));
}

async function listTools(served: Served, session: Record<string, string>): Promise<{ status: number; error: { message: string; data?: unknown } }> {
  const response = await fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }) });
  return { status: response.status, ...((await response.json()) as { error: { message: string; data?: unknown } }) };
}

describe('a session whose stream dropped during a call', () => {
  it.each([
    ['a full pool evicting it', ['--ephemeral-sessions', '1', '--session-recency-floor-ms', '0']],
    ['the idle reaper', ['--session-idle-ms', '400']],
  ])('is kept from %s until the call is answered, and the client resumes the result', async (_what, flags) => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '3']);
    const served = await startServe(workspace, [...flags, '--log-level', 'debug']);
    const caller = await openRawSession(served, EPHEMERAL);
    const dropped = streamDropped(served, caller);
    const lastEventId = await callThenDrop(served, caller, 'build', 'build_player');
    await dropped;
    // Another session, used after the caller's last request: once it is gone (evicted by the
    // next one, or reaped), the caller would have gone first if nothing held it.
    const witness = await openRawSession(served, EPHEMERAL);
    const witnessGone = sessionEnded(served, witness, flags.includes('--session-idle-ms') ? 'idle' : 'evicted');
    if (flags.includes('--ephemeral-sessions')) await openRawSession(served, EPHEMERAL);
    await witnessGone;

    const resumed = await resumeStream(served, caller, lastEventId);
    expect(resumed.status).toBe(200);
    expect(resumed.text).toContain('"id":"build"');
    expect(resumed.text).toContain('"structuredContent":{"status":"succeeded"');
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });
});

describe('a request for a session that ended', () => {
  it('is answered 404 with why it ended (evicted, reaped, deleted) and what to do', async () => {
    const workspace = createWorkspace();
    const served = await startServe(workspace, ['--ephemeral-sessions', '1', '--session-recency-floor-ms', '0', '--session-idle-ms', '1000', '--log-level', 'info']);
    const evicted = await openRawSession(served, EPHEMERAL);
    const reaped = await openRawSession(served, EPHEMERAL); // evicts the first
    const deleted = await openRawSession(served); // interactive: its own pool
    await fetch(served.url, { method: 'DELETE', headers: deleted });
    await sessionEnded(served, reaped, 'idle');

    const answers = await Promise.all([evicted, reaped, deleted].map((session) => listTools(served, session)));
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect(answers.map((a) => a.error.data)).toEqual([
      { code: 'SESSION_ENDED', reason: 'evicted', pool: 'ephemeral' },
      { code: 'SESSION_ENDED', reason: 'idle', pool: 'ephemeral' },
      { code: 'SESSION_ENDED', reason: 'deleted', pool: 'interactive' },
    ]);
    expect(answers[0]!.error.message).toMatch(/was evicted: the ephemeral session pool was full.*--ephemeral-sessions.*Initialize a new session\.$/);
    expect(answers[1]!.error.message).toMatch(/was reaped after being idle.*--session-idle-ms.*Initialize a new session\.$/);
    expect(answers[2]!.error.message).toMatch(/was ended by a DELETE request.*Initialize a new session\.$/);
    // An id never seen still gets the generic answer.
    expect((await listTools(served, { ...deleted, 'mcp-session-id': 'never-created' })).error.data).toEqual({ code: 'SESSION_NOT_FOUND' });
  });
});

describe('a session evicted while a task it started runs', () => {
  it('is told that its tasks run on, and a new session follows the task with tasks/get', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '2']);
    const served = await startServe(workspace, ['--ephemeral-sessions', '1', '--session-recency-floor-ms', '0']);
    const post = async (session: Record<string, string>, message: Record<string, unknown>) => {
      const response = await fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
      const text = await response.text();
      // JSON, or SSE: a priming event with no data, then the answer's.
      const answer = text.startsWith('{') ? text : ([...text.matchAll(/^data: (.+)$/gm)].at(-1)?.[1] ?? 'null');
      return { status: response.status, body: JSON.parse(answer) as { result?: { task?: { taskId: string }; status?: string }; error?: { message: string } } };
    };
    const starter = await openRawSession(served, EPHEMERAL);
    const started = await post(starter, { id: 'build', method: 'tools/call', params: { name: 'build_player', arguments: {}, task: { ttl: 60_000 } } });
    const taskId = started.body.result!.task!.taskId;

    const follower = await openRawSession(served, EPHEMERAL); // evicts the starter: its request was answered
    const gone = await post(starter, { id: 'list', method: 'tools/list' });
    expect(gone.status).toBe(404);
    expect(gone.body.error?.message).toContain('Tasks it started run on: a new session can follow each with tasks/get and its task id.');
    await expect.poll(async () => (await post(follower, { id: 'get', method: 'tasks/get', params: { taskId } })).body.result?.status).toBe('completed');
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });
});

/** Everything a response's stream carries until it ends; rejects if the stream is cut. */
async function readToEnd(response: Response): Promise<string> {
  const reader = response.body!.getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += new TextDecoder().decode(value);
  }
}

describe('a server shutting down with a call in flight', () => {
  it('cancels the call at the editor and answers it on its stream before the connection closes', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '60']);
    const served = await startServe(workspace);
    const session = await openRawSession(served);
    const call = await fetch(served.url, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ jsonrpc: '2.0', id: 'build', method: 'tools/call', params: { name: 'build_player', arguments: { target: 'WebGL' } } }),
    });
    const streamed = readToEnd(call);
    await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toContain('build_player');

    expect(await served.server.stop()).toBe(0);
    const text = await streamed; // the stream ended, and it did not break (a cut stream rejects the read)
    expect(text).toContain('"id":"build"');
    expect(text).toMatch(/"isError":true/);
    expect(text).toContain('tether serve is shutting down.');
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });

  it('answers a call whose client resumed its stream (Last-Event-ID) there too, before the connection closes', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '60']);
    const served = await startServe(workspace);
    const session = await openRawSession(served);
    // A network blip took the call's own stream; its client resumed it with a GET.
    const lastEventId = await callThenDrop(served, session, 'build', 'build_player');
    // 409 until the server has seen the old stream go, as a client's reconnection meets it.
    const resume = () => fetch(served.url, { method: 'GET', headers: { ...session, accept: 'text/event-stream', 'last-event-id': lastEventId } });
    let resumed = await resume();
    await expect
      .poll(async () => {
        if (resumed.status === 409) resumed = (await resumed.text(), await resume());
        return resumed.status;
      })
      .toBe(200);
    const streamed = readToEnd(resumed);
    await expect.poll(() => executedTools(workspace), { timeout: 10_000 }).toContain('build_player');

    expect(await served.server.stop()).toBe(0);
    const text = await streamed;
    expect(text).toContain('"id":"build"');
    expect(text).toContain('tether serve is shutting down.');
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });

  it('answers every call within its 3 s while the editor reloads, saying which may still run, and logs each', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--reload-ms', '30000']);
    const served = await startServe(workspace, ['--log-level', 'debug']);
    const [first, second] = [await openRawSession(served), await openRawSession(served)];
    const call = (session: Record<string, string>, id: number, name: string, args: Record<string, unknown>): Promise<string> =>
      fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) }).then(
        async (response) => response.text(),
        (error: unknown) => `cut: ${String(error)}`,
      );
    // compile_scripts reloads the editor's domain (30 s here) before it answers; a call made
    // meanwhile waits for the editor, unsent.
    const compiled = call(first, 1, 'compile_scripts', {});
    await served.server.waitForStderrLine((line) => line.includes('reloading'));
    const created = call(second, 2, 'create_gameobject', { name: 'DuringReload' });
    const inFlight = async (): Promise<string[]> => {
      const status = (await (await fetch(new URL('/status', served.url), { headers: { authorization: `Bearer ${served.token}` } })).json()) as { fronts: Array<{ calls: Array<{ tool: string }> }> };
      return status.fronts.flatMap((front) => front.calls.map((pending) => pending.tool)).sort();
    };
    await expect.poll(inFlight).toEqual(['compile_scripts', 'create_gameobject']);

    const stopping = Date.now();
    served.server.child.kill('SIGTERM');
    expect(await served.server.exited).toBe(0); // not the CLI's exit 1 after 5 s
    expect(Date.now() - stopping).toBeLessThan(4_500);
    const [compile, create] = await Promise.all([compiled, created]);
    expect(compile).toContain('"id":1');
    expect(compile).toContain('"code":"OUTCOME_UNKNOWN"');
    expect(create).toContain('"id":2');
    expect(create).toMatch(/"code":"CANCELLED","data":\{[^}]*"started":false/);
    const logged = await runToExit(process.execPath, [TETHER_BIN, 'logs', '--json'], { env: workspace.env });
    const calls = logged.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg?: string; tool?: string; code?: string })
      .filter((line) => line.msg === 'call');
    expect(calls).toEqual(
      expect.arrayContaining([expect.objectContaining({ tool: 'compile_scripts', code: 'OUTCOME_UNKNOWN' }), expect.objectContaining({ tool: 'create_gameobject', code: 'CANCELLED' })]),
    );
  });

  it('answers a request that arrives during the shutdown with 503 SHUTTING_DOWN, after the guards', async () => {
    const workspace = createWorkspace();
    // An editor whose tool does not stop when cancelled, so the shutdown waits for it a while.
    const host = new Host({ kind: 'test', name: 'Stubborn', version: '1.0.0', projectPath: workspace.project, recordsDir: join(workspace.home, 'hosts') });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let cancelArrived!: () => void;
    const shuttingDown = new Promise<void>((resolve) => (cancelArrived = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    host.tool({
      name: 'stubborn',
      description: 'Ignores its cancellation',
      handler: async (_args, context) => {
        context.signal.addEventListener('abort', () => cancelArrived());
        started();
        await released;
        return 'done anyway';
      },
    });
    await host.start();
    hosts.push(host);
    const served = await startServe(workspace);
    const session = await openRawSession(served);
    // Two requests already begun on their own connections when the shutdown starts (a server
    // closing drops idle connections, not ones reading a request): one from a stranger, one
    // from the client. Begun before the call, which the server has taken to the editor by the
    // time the tool runs: it has read these first bytes by then.
    const { port } = new URL(served.url);
    const begin = (): { finish(headers: Record<string, string>, body: string): Promise<string> } => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      let reply = '';
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
      const ended = new Promise<string>((resolve) => socket.on('close', () => resolve(reply)));
      return {
        finish: (headers, body) => {
          const lines = Object.entries({ ...headers, 'content-length': String(Buffer.byteLength(body)) }).map(([name, value]) => `${name}: ${value}\r\n`);
          socket.write(`${lines.join('')}\r\n${body}`);
          return ended;
        },
      };
    };
    const fromStranger = begin();
    const fromClient = begin();
    const call = fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'stubborn', arguments: {} } }) });
    await running;

    served.server.child.kill('SIGTERM');
    await shuttingDown; // the server is closing: it cancelled the call at the editor
    const list = JSON.stringify({ jsonrpc: '2.0', id: 'late', method: 'tools/list' });
    const withoutToken = Object.fromEntries(Object.entries(session).filter(([name]) => name.toLowerCase() !== 'authorization'));
    const [stranger, client] = await Promise.all([fromStranger.finish(withoutToken, list), fromClient.finish(session, list)]);
    expect(stranger).toMatch(/^HTTP\/1\.1 401/);
    expect(stranger).not.toContain('shutting down');
    expect(client).toMatch(/^HTTP\/1\.1 503/);
    expect(client).toContain('"code":"SHUTTING_DOWN"');
    expect(client).toContain('tether serve is shutting down; send this again once it is back');

    release();
    expect(await (await call).text()).toContain('"id":"slow"');
    expect(await served.server.exited).toBe(0);
  });
});
