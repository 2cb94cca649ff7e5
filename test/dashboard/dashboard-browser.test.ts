/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core) against a real
 * `tether serve` and sandbox editor: log in through the one-time link; watch a build appear
 * with a moving progress bar and finish as a success; cancel a long call from the page and see
 * the editor stop it; see a domain reload as a state change; see an interrupted call (editor
 * killed mid-call) marked outcome unknown, by the front and by the editor's journal; and a
 * request from another origin or without the cookie refused.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHttpClients, connectHttp, startServe, type Served } from '../helpers/serve.js';
import { REPO_ROOT, TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';
import { chromiumMissing, hasChromium, launchChromium, loginLink as linkFor, openDashboard as openTab } from './chromium.js';

/** The page's own storage, as code evaluated in the page sees it (these tests are typed for Node). */
declare const sessionStorage: { getItem(key: string): string | null };

const needsChromium = hasChromium ? '' : ` (skipped: ${chromiumMissing})`;

let browser: Browser | undefined;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

/** The one-time login link, as a person gets it: `tether status --open` (without starting a browser). */
function loginLink(workspace: Workspace): Promise<string> {
  return linkFor(workspace.env);
}

async function openDashboard(workspace: Workspace): Promise<Page> {
  const page = await openTab(browser!, workspace.env);
  // The page secret left the address bar (and the history) at once.
  expect(new URL(page.url()).hash).toBe('');
  return page;
}

async function served(extraSandbox: string[] = [], extraServe: string[] = []): Promise<{ workspace: Workspace; serve: Served; sandbox: Awaited<ReturnType<typeof startSandbox>>['sandbox'] }> {
  const workspace = createWorkspace();
  const { sandbox } = await startSandbox(workspace, extraSandbox);
  const serve = await startServe(workspace, extraServe);
  return { workspace, serve, sandbox };
}

describe('the dashboard in a browser', () => {
  it.skipIf(!hasChromium)(`logs in with the one-time link; a build shows a moving progress bar, then a success${needsChromium}`, async () => {
    const { workspace, serve } = await served(['--build-seconds', '4']);
    const page = await openDashboard(workspace);
    await expect.poll(() => page.locator('#editors [data-state]').first().getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');

    const { client } = await connectHttp(serve);
    const build = client.callTool({ name: 'build_player', arguments: {} });
    const row = page.locator('#inflight tr[data-call]', { hasText: 'build_player' });
    await row.waitFor({ state: 'visible', timeout: 15_000 });
    await expect.poll(() => row.textContent()).toContain('http-test');
    const bar = row.locator('[role="progressbar"]');
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(0);
    const first = Number(await bar.getAttribute('aria-valuenow'));
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(first);
    if (process.env.TETHER_UPDATE_SCREENSHOT) await page.screenshot({ path: join(REPO_ROOT, 'docs', 'dashboard.png'), fullPage: true });

    const result = await build;
    expect(result.isError).toBeFalsy();
    await page.locator('#recent tr[data-outcome="success"]', { hasText: 'build_player' }).waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('#inflight tr[data-call]').count(), { timeout: 10_000 }).toBe(0);
  });

  it.skipIf(!hasChromium)(`cancels a long call from the page, after a confirmation, and the editor stops it${needsChromium}`, async () => {
    const { workspace, serve } = await served(['--build-seconds', '120']);
    const page = await openDashboard(workspace);
    const { client } = await connectHttp(serve);
    const build = client.callTool({ name: 'build_player', arguments: {} });
    const row = page.locator('#inflight tr[data-call]', { hasText: 'build_player' });
    await row.getByRole('button', { name: 'Cancel' }).click({ timeout: 15_000 });
    // Nothing is sent before the confirmation: the build still runs.
    await row.getByRole('button', { name: 'Keep running' }).waitFor({ state: 'visible' });
    await row.getByRole('button', { name: 'Stop build_player' }).click();
    const result = await build;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('CANCELLED');
    await page.locator('#recent tr[data-outcome="cancelled"]', { hasText: 'build_player' }).waitFor({ timeout: 15_000 });
  });

  it.skipIf(!hasChromium)(`shows a domain reload as a state change, with how long it took${needsChromium}`, async () => {
    const { workspace } = await served(['--reload-ms', '1500']);
    const page = await openDashboard(workspace);
    const card = page.locator('#editors .card').first();
    await expect.poll(() => card.locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
    const compile = runToExit(process.execPath, [TETHER_BIN, 'call', 'compile_scripts', '--project', workspace.project], { env: workspace.env });
    await expect.poll(() => card.locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('reloading');
    await expect.poll(() => card.locator('[data-state]').getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
    await expect.poll(() => card.textContent()).toMatch(/last reload \d/);
    expect((await compile).code).toBe(0);
  });

  it.skipIf(!hasChromium)(`marks a call interrupted by the editor's death as outcome unknown, and lists the journal's word once it is back${needsChromium}`, async () => {
    const { workspace, serve, sandbox } = await served(['--build-seconds', '120'], ['--wait-ms', '1500']);
    const page = await openDashboard(workspace);
    const { client } = await connectHttp(serve);
    const build = client.callTool({ name: 'build_player', arguments: {} });
    await page.locator('#inflight tr[data-call]', { hasText: 'build_player' }).waitFor({ timeout: 15_000 });
    sandbox.child.kill('SIGKILL');
    const result = await build;
    expect(JSON.stringify(result.content)).toContain('OUTCOME_UNKNOWN');
    await page.locator('#recent tr[data-outcome="unknown"]', { hasText: 'build_player' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('#recent tr[data-outcome="unknown"]').first().textContent()).toContain('may have run');
    // The editor comes back and its journal says the build was interrupted.
    await startSandbox(workspace);
    await page.locator('#unknown tr[data-call]', { hasText: 'build_player' }).waitFor({ timeout: 20_000 });
  });

  it.skipIf(!hasChromium)(`refuses the feed without the cookie and a cancel from another origin${needsChromium}`, async () => {
    const { workspace, serve } = await served();
    const page = await openDashboard(workspace);
    const origin = new URL(serve.url).origin;
    // From the logged-in page itself: its secret, its cookie, its origin — but a made-up call.
    const own = await page.evaluate(async () => {
      const secret = sessionStorage.getItem('tether-dashboard-secret') ?? '';
      const response = await fetch('/dashboard/cancel', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tether-dashboard': secret },
        body: JSON.stringify({ project: '/nowhere', callId: 'c' }),
      });
      return response.status;
    });
    expect(own).toBe(404);
    const secret = await page.evaluate(() => sessionStorage.getItem('tether-dashboard-secret') ?? '');
    const cookies = await page.context().cookies(`${origin}/dashboard/events`);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    expect(cookies.find((c) => c.name === 'tether_dashboard')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
    const cancel = (headers: Record<string, string>) =>
      fetch(`${origin}/dashboard/cancel`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ project: workspace.project, callId: 'c' }) });
    expect((await cancel({ origin: 'http://127.0.0.1:1', cookie, 'x-tether-dashboard': secret })).status).toBe(403);
    expect((await cancel({ origin: 'https://evil.example', cookie, 'x-tether-dashboard': secret })).status).toBe(403);
    expect((await cancel({ origin, 'x-tether-dashboard': secret })).status).toBe(401);
    expect((await cancel({ origin, cookie })).status).toBe(401);
    expect((await fetch(`${origin}/dashboard/events`, { headers: { 'x-tether-dashboard': secret } })).status).toBe(401);
    expect((await fetch(`${origin}/dashboard/events`, { headers: { cookie } })).status).toBe(401);
    // A used login link is dead.
    const link = await loginLink(workspace);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(303);
    expect((await fetch(link, { redirect: 'manual' })).status).toBe(403);
    // The page holds no token.
    expect(await page.content()).not.toContain(serve.token);
  });
});
