/**
 * A wait for the editor is a duration: a wall clock stepped back (NTP, a virtual machine or a
 * laptop resumed) must not stretch it. A call that waits for an editor away for a reload was
 * kept waiting for as long as the clock had gone back, its client told nothing.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Host } from '../../src/host/index.js';
import { HostLink } from '../../src/link/host-link.js';
import { tempDir, waitForState } from './fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe("the link's wait for an editor", () => {
  it('ends on time when the wall clock is stepped back during it', async () => {
    const { dir, remove } = tempDir('tether-link-clock-');
    cleanups.push(remove);
    const projectPath = join(dir, 'project');
    mkdirSync(projectPath);
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath, recordsDir: join(dir, 'hosts') });
    await host.start();
    cleanups.push(() => host.close());
    const link = new HostLink({ recordsDir: join(dir, 'hosts'), project: projectPath });
    cleanups.push(() => link.close());
    link.start();
    await waitForState(link, 'authenticated');
    await host.close({ reason: 'reload', expectedBackMs: 60_000 });
    await waitForState(link, 'reloading');

    vi.useFakeTimers({ toFake: ['Date'] });
    const started = performance.now();
    const waiting = link.connection(300).then(
      () => 'connected',
      (error: unknown) => (error as { code?: string }).code,
    );
    vi.setSystemTime(Date.now() - 60_000);
    const outcome = await Promise.race([waiting, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3_000))]);
    expect(outcome).toBe('HOST_UNAVAILABLE');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
