/**
 * A dashboard login starts with a one-time code from POST /dashboard/login-codes, which only a
 * holder of serve's bearer token may ask for: every other dashboard path is served without the
 * token (a browser cannot send it), so this is the one door between the token and a login.
 * A real `tether serve`, asked over HTTP with no token, a wrong one and the right one; and the
 * route itself, reached without its token checked, as a routing mistake would reach it.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardFeed } from '../../src/http/dashboard/dashboard-feed.js';
import { DashboardRoutes } from '../../src/http/dashboard/dashboard-routes.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { sameLengthWrong, startServe } from '../helpers/serve.js';

afterEach(cleanupProcesses);

describe('POST /dashboard/login-codes', () => {
  it('gives a login link to a holder of the bearer token only: 401 without it or with a wrong one', async () => {
    const served = await startServe(createWorkspace());
    const origin = new URL(served.url).origin;
    const ask = (headers: Record<string, string>) => fetch(`${origin}/dashboard/login-codes`, { method: 'POST', headers });
    const sameLength = sameLengthWrong(served.token);
    expect(sameLength).toHaveLength(served.token.length);
    const refusals: Record<string, { status: number; body: string }> = {};
    for (const [what, headers] of [
      ['no token', {}],
      ['short wrong token', { authorization: 'Bearer nope' }],
      ['same-length wrong token', { authorization: `Bearer ${sameLength}` }],
    ] as const) {
      const answer = await ask(headers);
      refusals[what] = { status: answer.status, body: await answer.text() };
    }
    expect(refusals).toEqual({
      'no token': { status: 401, body: expect.stringContaining('"error":"UNAUTHORIZED"') },
      'short wrong token': { status: 401, body: expect.stringContaining('"error":"UNAUTHORIZED"') },
      'same-length wrong token': { status: 401, body: expect.stringContaining('"error":"UNAUTHORIZED"') },
    });
    for (const { body } of Object.values(refusals)) expect(body).not.toContain('code=');

    const granted = await ask({ authorization: `Bearer ${served.token}` });
    expect(granted.status).toBe(200);
    const { url, expiresInSeconds } = (await granted.json()) as { url: string; expiresInSeconds: number };
    expect(url).toMatch(new RegExp(`^${origin.replaceAll('.', '\\.')}/dashboard/login\\?code=[\\w-]{20,}$`));
    expect(expiresInSeconds).toBe(120);
    // The link it gave logs in (once): a cookie, and the page secret in the redirect's fragment.
    const login = await fetch(url, { redirect: 'manual' });
    expect(login.status).toBe(303);
    expect(login.headers.get('set-cookie')).toMatch(/^tether_dashboard=[\w-]+;/);
    expect(login.headers.get('location')).toMatch(/^\/#session=[\w-]+$/);
    // And the link holds a code, never the token.
    expect(url).not.toContain(served.token);
  });

  it('issues no code when the request reached it without its token checked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-test-'));
    const routes = new DashboardRoutes({
      assetsDir: join(dir, 'assets'),
      feed: new DashboardFeed({ recordsDir: join(dir, 'hosts'), logsDir: join(dir, 'logs'), httpAgents: () => [] }),
      origins: () => new Set(),
      authenticated: () => undefined,
    });
    // The server says whether it checked the token; a request the routes do not take is a 404.
    const server = createServer((req, res) => {
      void routes.handle(req, res, new URL(req.url ?? '/', 'http://localhost'), req.headers['x-bearer-checked'] === 'yes').then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dashboard/login-codes`;
      const unchecked = await fetch(url, { method: 'POST' });
      expect(unchecked.status).toBe(404);
      expect(await unchecked.text()).not.toContain('code=');
      // The positive control: the same request, its token checked, gets its code.
      const checked = await fetch(url, { method: 'POST', headers: { 'x-bearer-checked': 'yes' } });
      expect(checked.status).toBe(200);
      expect(((await checked.json()) as { url: string }).url).toContain('/dashboard/login?code=');
      expect(DashboardRoutes.isPublic('/dashboard/login-codes', 'POST')).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
