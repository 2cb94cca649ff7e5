/**
 * A link's `reloadWaitMs`: while the editor is away for a domain reload and its process runs,
 * a wait for the connection goes on past its own `waitMs`, up to that budget in all. Without
 * the option (the MCP fronts) a wait ends after `waitMs`, as before.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/index.js';
import { HostLink, type HostLinkOptions } from '../../src/link/host-link.js';
import { tempDir, waitForState } from './fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host, a link connected to it, and the host gone for a reload it announced (back in a minute, it says). */
async function reloading(options: HostLinkOptions): Promise<{ link: HostLink; comeBack: () => Promise<void> }> {
  const { dir, remove } = tempDir('tether-reload-wait-');
  cleanups.push(remove);
  const projectPath = join(dir, 'project');
  mkdirSync(projectPath);
  const recordsDir = join(dir, 'hosts');
  const identity = { kind: 'test', name: 'Test', version: '1.0.0', projectPath, recordsDir, instanceId: `editor-${Date.now()}` };
  const before = new Host(identity);
  await before.start();
  const link = new HostLink({ recordsDir, project: projectPath, ...options });
  cleanups.push(() => link.close());
  link.start();
  await waitForState(link, 'authenticated');
  await before.close({ reason: 'reload', expectedBackMs: 60_000 });
  await waitForState(link, 'reloading');
  const comeBack = async (): Promise<void> => {
    // The same instance listening again rewrites its record: the link tries at once.
    const after = new Host(identity);
    await after.start();
    cleanups.push(() => after.close());
  };
  return { link, comeBack };
}

describe("a link's wait for an editor away for a domain reload", () => {
  it('goes on past waitMs while the editor reloads and its process runs, and connects once it is back', async () => {
    const { link, comeBack } = await reloading({ reloadWaitMs: 10_000 });
    expect(link.awayForReload()).toBe(true);
    const waiting = link.connection(100).then(
      () => 'connected',
      (error: unknown) => (error as { code?: string }).code,
    );
    // Well past the 100 ms the wait itself allows.
    expect(await Promise.race([waiting, delay(600).then(() => 'still waiting')])).toBe('still waiting');
    await comeBack();
    expect(await waiting).toBe('connected');
    expect(link.awayForReload()).toBe(false);
  });

  it('ends after waitMs without a reload budget, as the fronts wait', async () => {
    const { link } = await reloading({});
    const started = performance.now();
    await expect(link.connection(100)).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE', data: { state: 'reloading' } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('ends once the reload budget is spent, saying how long it waited', async () => {
    const { link } = await reloading({ reloadWaitMs: 400 });
    const failure = await link.connection(100).then(
      () => undefined,
      (error: unknown) => error as { code?: string; message: string },
    );
    expect(failure?.code).toBe('HOST_UNAVAILABLE');
    // The whole wait, its reload included: not the 100 ms of the wait alone.
    expect(Number(/after waiting (\d+) ms/.exec(failure?.message ?? '')?.[1])).toBeGreaterThanOrEqual(400);
  });

  // A record left by an editor that no longer hosts (its process alive) held every request for
  // the whole budget: the budget is the absence's, spent once, not every request's.
  it('spends the reload budget once per absence: a request after it waits only its own waitMs', async () => {
    const { link } = await reloading({ reloadWaitMs: 1_500 });
    await expect(link.connection(100)).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE' });
    const started = performance.now();
    const failure = await link.connection(100).then(
      () => undefined,
      (error: unknown) => error as { code?: string; message: string },
    );
    expect(failure?.code).toBe('HOST_UNAVAILABLE');
    expect(failure?.message).toContain('after waiting 100 ms');
    // Well short of the 1.5 s budget the first request waited.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
