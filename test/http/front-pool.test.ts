/**
 * FrontPool: a front (host link, its timers, a watch of the hosts folder) per project named
 * by a client, kept while used and closed once unused beyond a few spares or after idling.
 * In process for the rules, then a real `tether serve` flooded with made-up project names.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FrontPool } from '../../src/http/front-pool.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe, type Served } from '../helpers/serve.js';

const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await cleanupProcesses();
});

function pool(options: { spareFronts: number; idleFrontMs: number }): FrontPool {
  const home = mkdtempSync(join(tmpdir(), 'tether-fronts-'));
  const fronts = new FrontPool({ home, project: join(home, 'default'), ...options });
  cleanups.push(
    () => rmSync(home, { recursive: true, force: true }),
    () => fronts.close(),
  );
  return fronts;
}

describe('FrontPool', () => {
  it('closes unused fronts beyond the spares, least recently used first, never a held one or the default', () => {
    const fronts = pool({ spareFronts: 1, idleFrontMs: 60_000 });
    const main = fronts.get();
    const a = fronts.get('/nowhere/a');
    const releaseA = fronts.hold(a);
    const b = fronts.get('/nowhere/b'); // two others, but a is held and b is the newest
    const releaseB = fronts.hold(b);
    expect(fronts.all()).toEqual([main, a, b]);
    releaseA(); // a is now unused, and one other too many
    expect(a.link.state).toBe('closed');
    expect(fronts.all()).toEqual([main, b]);
    releaseB(); // the one spare
    expect(fronts.all()).toEqual([main, b]);
    expect(fronts.get('/nowhere/a')).not.toBe(a); // asked for again: a new front
  });

  it('has one front for a project however its folder is named (through a symbolic link too)', () => {
    const fronts = pool({ spareFronts: 4, idleFrontMs: 60_000 });
    const home = mkdtempSync(join(tmpdir(), 'tether-named-'));
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const game = join(home, 'game');
    mkdirSync(game);
    symlinkSync(game, join(home, 'linked'));
    const front = fronts.get(game);
    expect(fronts.get(join(home, 'linked'))).toBe(front);
    expect(fronts.get(`${game}/.`)).toBe(front);
  });

  it('closes an unused front once it has idled, and keeps one with a call in flight', async () => {
    const fronts = pool({ spareFronts: 8, idleFrontMs: 50 });
    const main = fronts.get();
    const idle = fronts.get('/nowhere/idle');
    const calling = fronts.get('/nowhere/calling');
    calling.pending.set('call', { callId: 'call', tool: 'build_player', startedAt: Date.now(), state: 'waiting' });
    await expect.poll(() => idle.link.state, { timeout: 2_000 }).toBe('closed');
    expect(calling.link.state).not.toBe('closed');
    calling.pending.clear(); // the call ended: the next sweep closes it
    await expect.poll(() => calling.link.state, { timeout: 2_000 }).toBe('closed');
    expect(fronts.all()).toEqual([main]);
  });
});

async function health(served: Served): Promise<{ links: unknown[] }> {
  return (await (await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } })).json()) as { links: unknown[] };
}

/** fs.watch handles open in the server: one per front (its watch of the hosts folder). */
async function watchers(served: Served): Promise<number> {
  const text = await (await fetch(served.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${served.token}` } })).text();
  return Number(/^tether_serve_nodejs_active_handles\{type="FSWatcher"\} (\d+)/m.exec(text)?.[1] ?? 0);
}

describe('tether serve with clients naming many projects', () => {
  it('keeps a bounded number of links after 100 requests for made-up projects', async () => {
    const served = await startServe(createWorkspace());
    for (let i = 0; i < 100; i++) {
      const response = await fetch(served.url, {
        method: 'GET',
        headers: { authorization: `Bearer ${served.token}`, accept: 'text/event-stream', 'x-tether-project': `/nonexistent/p${i}` },
      });
      await response.body?.cancel();
    }
    // The default front and at most 8 spares, each with its one watch.
    await expect.poll(async () => (await health(served)).links.length).toBeLessThanOrEqual(9);
    expect(await watchers(served)).toBeLessThanOrEqual(9);
  });

  it('keeps every front a session is bound to, and closes the extra ones when the sessions end', async () => {
    const served = await startServe(createWorkspace());
    const sessions = [];
    for (let i = 0; i < 12; i++) sessions.push(await openRawSession(served, { 'x-tether-project': `/nonexistent/s${i}` }));
    expect((await health(served)).links).toHaveLength(13);
    await Promise.all(sessions.map((headers) => fetch(served.url, { method: 'DELETE', headers })));
    await expect.poll(async () => (await health(served)).links.length).toBe(9);
  });
});
