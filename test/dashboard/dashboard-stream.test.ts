/**
 * The dashboard's live feed lasts as long as the login it opened with. Logins are bounded (the
 * least recently used goes when the 33rd comes); a stream whose login was evicted must stop
 * getting snapshots, not go on showing every call for as long as its socket stays open.
 * A real `tether serve` and sandbox editor; the feed read as a browser's EventSource reads it.
 */
import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { requestLoginLink } from '../../src/cli/status/dashboard-link.js';
import { closeHttpClients, connectHttp, startServe, type Served } from '../helpers/serve.js';
import { cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

/** A login through a one-time link: the session's cookie and its page secret. */
async function logIn(workspace: Workspace, served: Served): Promise<{ cookie: string; secret: string }> {
  const response = await fetch(await requestLoginLink(workspace.home, served), { redirect: 'manual' });
  expect(response.status).toBe(303);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const secret = /#session=(.+)$/.exec(response.headers.get('location')!)![1]!;
  return { cookie, secret };
}

/** The events stream: its response, and its snapshots as they come. */
async function openFeed(served: Served, login: { cookie: string; secret: string }): Promise<{ response: IncomingMessage; snapshots: () => number; ended: Promise<void> }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(new URL('/dashboard/events', served.url), { headers: { cookie: login.cookie, 'x-tether-dashboard': login.secret } }, resolve);
    req.on('error', reject);
    req.end();
  });
  let text = '';
  response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const ended = new Promise<void>((resolve) => response.once('close', () => resolve()));
  return { response, snapshots: () => text.split('event: snapshot').length - 1, ended };
}

describe('the dashboard feed', () => {
  it('ends, with no snapshot more, once its login was evicted by newer ones', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await startServe(workspace);
    const login = await logIn(workspace, served);
    const feed = await openFeed(served, login);
    expect(feed.response.statusCode).toBe(200);
    await expect.poll(feed.snapshots).toBeGreaterThan(0);

    // 32 logins after it: the first is the least recently used, and goes.
    for (let i = 0; i < 32; i++) await logIn(workspace, served);
    const refused = await fetch(new URL('/dashboard/events', served.url), { headers: { cookie: login.cookie, 'x-tether-dashboard': login.secret } });
    expect(refused.status).toBe(401);
    const seen = feed.snapshots();

    // A call makes a snapshot: the evicted login's stream ends instead of showing it.
    const { client } = await connectHttp(served);
    expect((await client.callTool({ name: 'get_hierarchy', arguments: {} })).isError).toBeFalsy();
    await feed.ended;
    expect(feed.snapshots()).toBe(seen);
  });
});
