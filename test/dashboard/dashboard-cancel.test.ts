/**
 * The dashboard's one mutating action, POST /dashboard/cancel, without a browser: a real
 * `tether serve` and sandbox editor, logged in as the page is (the one-time link's redirect
 * gives the cookie and, in its fragment, the page secret), the feed read as the page reads it
 * to learn the call's id. The cancel is refused from another origin (403), without the cookie
 * or the secret (401), and a used login link is dead (403); none of those stops the build.
 * Asked rightly, the editor stops it.
 */
import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLoginLink } from '../../src/cli/status/dashboard-link.js';
import type { DashboardSnapshot } from '../../src/http/dashboard/dashboard-feed.js';
import { buildLog, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, sameLengthWrong, startServe, type Served } from '../helpers/serve.js';

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

interface Login {
  link: string;
  cookie: string;
  secret: string;
}

/** Logs in as the page does: a one-time link, followed by hand to read its redirect. */
async function logIn(served: Served, home: string): Promise<Login> {
  const link = await requestLoginLink(home, served);
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  // The cookie only the dashboard's paths get, out of scripts' reach; the secret never sent to a server.
  expect(setCookie).toMatch(/^tether_dashboard=[\w-]+; HttpOnly; SameSite=Strict; Path=\/dashboard;/);
  const secret = /^\/#session=([\w-]+)$/.exec(response.headers.get('location') ?? '')?.[1];
  expect(secret).toBeDefined();
  return { link, cookie: setCookie.split(';')[0]!, secret: secret! };
}

/** The live feed, as the page's EventSource reads it: resolves a wait once a snapshot matches. */
async function openFeed(
  served: Served,
  login: Login,
): Promise<{ next: (what: string, match: (s: DashboardSnapshot) => boolean, timeoutMs?: number) => Promise<DashboardSnapshot>; close: () => void }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(new URL('/dashboard/events', served.url), { headers: { cookie: login.cookie, 'x-tether-dashboard': login.secret } }, resolve);
    req.on('error', reject);
    req.end();
  });
  expect(response.statusCode).toBe(200);
  const waiters = new Set<{ match: (s: DashboardSnapshot) => boolean; resolve: (s: DashboardSnapshot) => void }>();
  let buffer = '';
  response.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(event)?.[1];
      if (!event.startsWith('event: snapshot') || data === undefined) continue;
      const snapshot = JSON.parse(data) as DashboardSnapshot;
      for (const waiter of [...waiters]) {
        if (!waiter.match(snapshot)) continue;
        waiters.delete(waiter);
        waiter.resolve(snapshot);
      }
    }
  });
  const next = (what: string, match: (s: DashboardSnapshot) => boolean, timeoutMs = 15_000) =>
    new Promise<DashboardSnapshot>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no dashboard snapshot showed ${what} within ${timeoutMs} ms`)), timeoutMs);
      waiters.add({
        match,
        resolve: (snapshot) => {
          clearTimeout(timer);
          resolve(snapshot);
        },
      });
    });
  return { next, close: () => response.destroy() };
}

/** The build_player call the editor is running, as the page sees it (its project and call id), if any. */
function runningBuild(snapshot: DashboardSnapshot): { project: string; callId: string } | undefined {
  for (const editor of snapshot.editors) {
    const call = editor.status?.calls.find((c) => c.tool === 'build_player' && c.state === 'running');
    if (call) return { project: editor.project, callId: call.callId };
  }
  return undefined;
}

describe('the dashboard cancel, without a browser', () => {
  it('is refused from another origin (403), without the cookie or the secret (401), a used login link is dead (403), and a logged-in page at its origin stops the build', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '120']);
    const served = await startServe(workspace);
    const origin = new URL(served.url).origin;
    const login = await logIn(served, workspace.home);
    const other = await logIn(served, workspace.home);
    const feed = await openFeed(served, login);

    const { client } = await connectHttp(served);
    let settled = false;
    const build = client.callTool({ name: 'build_player', arguments: {} }).finally(() => (settled = true));
    const target = runningBuild(await feed.next('the build running', (s) => runningBuild(s) !== undefined))!;

    // Each refused request names the real project and the running call: let through, it would stop the build.
    const cancel = async (headers: Record<string, string>) => {
      const answer = await fetch(`${origin}/dashboard/cancel`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(target) });
      return { status: answer.status, error: ((await answer.json()) as { error?: string }).error };
    };
    const logged = { cookie: login.cookie, 'x-tether-dashboard': login.secret };
    const port = Number(new URL(served.url).port);
    const refused = {
      // A loopback page on another port passes the server's Origin guard: only the cancel's own check stops it.
      otherLoopbackPort: await cancel({ ...logged, origin: `http://127.0.0.1:${port + 1}` }),
      otherHost: await cancel({ ...logged, origin: 'https://evil.example' }),
      noOrigin: await cancel(logged),
      noCookie: await cancel({ origin, 'x-tether-dashboard': login.secret }),
      noSecret: await cancel({ origin, cookie: login.cookie }),
      anotherLoginsSecret: await cancel({ origin, cookie: login.cookie, 'x-tether-dashboard': other.secret }),
      wrongSecret: await cancel({ origin, cookie: login.cookie, 'x-tether-dashboard': sameLengthWrong(login.secret) }),
    };
    expect(refused).toEqual({
      otherLoopbackPort: { status: 403, error: 'FORBIDDEN_ORIGIN' },
      otherHost: { status: 403, error: 'FORBIDDEN_ORIGIN' },
      noOrigin: { status: 403, error: 'FORBIDDEN_ORIGIN' },
      noCookie: { status: 401, error: 'LOGIN_REQUIRED' },
      noSecret: { status: 401, error: 'LOGIN_REQUIRED' },
      anotherLoginsSecret: { status: 401, error: 'LOGIN_REQUIRED' },
      wrongSecret: { status: 401, error: 'LOGIN_REQUIRED' },
    });
    // The feed is refused the same way.
    expect((await fetch(`${origin}/dashboard/events`, { headers: { 'x-tether-dashboard': login.secret } })).status).toBe(401);
    expect((await fetch(`${origin}/dashboard/events`, { headers: { cookie: login.cookie } })).status).toBe(401);
    // A used login link is dead.
    const reused = await fetch(login.link, { redirect: 'manual' });
    expect(reused.status).toBe(403);
    expect(reused.headers.get('set-cookie')).toBeNull();
    // The page holds no token.
    expect(await (await fetch(`${origin}/`)).text()).not.toContain(served.token);

    // Nothing reached the editor: a snapshot taken after all that still shows the build running.
    const after = Date.now();
    expect(runningBuild(await feed.next('a moment after the refusals', (s) => s.now > after))).toEqual(target);
    expect(settled).toBe(false);
    expect(buildLog(workspace)).toEqual([]);

    // From the page itself (its origin, cookie and secret): the editor stops the build.
    const stopped = await fetch(`${origin}/dashboard/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, ...logged },
      body: JSON.stringify(target),
    });
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toMatchObject({ status: { callId: target.callId, tool: 'build_player' } });
    // Bounded, with its own word: a cancel that did not reach the editor would leave a 120 s build running.
    await feed.next('the build stopped', (s) => !s.editors.some((editor) => editor.status?.calls.some((c) => c.callId === target.callId)), 10_000);
    const result = await build;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('CANCELLED');
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'cancelled' })]);
    feed.close();
  });
});
