/**
 * A Host serves one life, from start() to close(): once closing has begun it neither starts
 * (no port, no host record for a host that is gone) nor takes a connection, and says so with
 * a typed error that says to create a new Host.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/index.js';
import { createLinkedStreams } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newHost(): Host {
  const home = mkdtempSync(join(tmpdir(), 'tether-closed-'));
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
  cleanups.push(() => host.close());
  return host;
}

const closed = (what: string) => ({
  code: 'INTERNAL_ERROR',
  message: expect.stringContaining(`This host was closed, so it cannot ${what}: a Host serves once, from start() to close(). Create a new Host to serve again`),
  data: { closed: true, instanceId: expect.any(String) },
});

describe('a closed host', () => {
  it('does not start: no port, no record', async () => {
    const host = newHost();
    await host.close();
    await expect(host.start()).rejects.toMatchObject(closed('start'));
    await expect(host.start({ listen: false })).rejects.toMatchObject(closed('start'));
    expect(host.port).toBeUndefined();
    expect(existsSync(host.recordPath)).toBe(false);
  });

  it('does not finish starting when it is closed while it opens its port', async () => {
    const host = newHost();
    const starting = host.start();
    const closing = host.close();
    await expect(starting).rejects.toMatchObject(closed('start'));
    await closing;
    expect(existsSync(host.recordPath)).toBe(false);
  });

  it('refuses a connection once closed, for a reload too, and before it ever started', async () => {
    const started = newHost();
    await started.start({ listen: false });
    await started.close({ reason: 'reload', expectedBackMs: 1_000 });
    const [, hostEnd] = createLinkedStreams();
    expect(() => started.accept(hostEnd)).toThrow(expect.objectContaining(closed('take a connection')));

    const never = newHost();
    await never.close();
    expect(() => never.accept(createLinkedStreams()[1])).toThrow(expect.objectContaining(closed('take a connection')));
  });
});
