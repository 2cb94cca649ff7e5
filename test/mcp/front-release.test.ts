/**
 * A closed front is garbage once its owner lets go: `tether serve` retires fronts from its
 * pool as editors come and go, and anything a front armed that outlived its close (the
 * record watcher, the pinger, a retry) would keep it, its link and its mirror for as long.
 * The host beside it is a real one, in process, that answers one call first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/index.js';
import { Front } from '../../src/mcp/front.js';
import { collected } from '../helpers/garbage.js';

const hosts: Host[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

async function startHost(home: string, project: string): Promise<Host> {
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: project, recordsDir: join(home, 'hosts') });
  host.tool({ name: 'echo', description: 'Answers at once', annotations: { readOnlyHint: true }, handler: () => 'pong' });
  await host.start();
  hosts.push(host);
  return host;
}

/** Closes a front that made one call, `meanwhile` run between the call and the close; a WeakRef to it. */
async function closedFront(meanwhile: (host: Host, front: Front) => Promise<void>): Promise<WeakRef<Front>> {
  const home = mkdtempSync(join(tmpdir(), 'tether-front-release-'));
  const project = mkdtempSync(join(tmpdir(), 'tether-front-release-project-'));
  const host = await startHost(home, project);
  const front = new Front({ project, home }).start();
  const tool = await front.lookUpTool('echo');
  expect(tool).toBeDefined();
  await front.call(tool!, {}, {});
  await meanwhile(host, front);
  await front.close();
  return new WeakRef(front);
}

describe('a closed front', () => {
  it('is released while its editor is still there', async () => {
    expect(await collected(await closedFront(async () => undefined))).toBe(true);
  });

  it('is released while its link waits to try an editor that went away to reload', async () => {
    const released = await closedFront(async (host, front) => {
      const left = new Promise((resolve) => front.link.once('state', resolve));
      hosts.splice(hosts.indexOf(host), 1);
      // As a domain reload does: the record stays, so the link tries the editor again after a pause.
      await host.close({ reason: 'reload', expectedBackMs: 60_000 });
      await left;
      expect(front.link.state).not.toBe('authenticated');
    });
    expect(await collected(released)).toBe(true);
  });
});
