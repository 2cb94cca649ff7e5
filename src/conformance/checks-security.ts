/**
 * What protects the token: a host record only its owner may read, and a listener on loopback
 * only (protocol.md §2, §12 and §14). A host that got either wrong would still pass every
 * other check. And what protects the host from strangers before the hello: a bound on the
 * connections waiting for theirs.
 */
import { lstatSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { recordPath } from '../discovery/host-record.js';
import { assert } from './assertions.js';
import type { RawConnection } from './raw-connection.js';
import type { Check } from './types.js';

/** Connections opened that never say hello: far past the reference's bound (32). */
const SILENT_CONNECTIONS = 200;
/** "At once": the oldest must be closed this soon after the last one was opened, far sooner than any handshake timeout the suite expects. */
const AT_ONCE_MS = 300;

export const securityChecks: readonly Check[] = [
  {
    id: 'security.private-record',
    requirement: 'SC-1',
    title: 'the host record, which holds the token, is a plain file only its owner may read or write',
    async run({ target }) {
      const path = recordPath(target.recordsDir, target.record.instanceId);
      const stats = lstatSync(path, { throwIfNoEntry: false });
      assert(stats !== undefined, `the host record is not at ${path}, where the suite found it`);
      assert(stats.isFile(), `${path} is not a plain file (a symbolic link, or something else): write the record itself there`);
      if (process.platform === 'win32') return; // no POSIX modes there
      const mode = stats.mode & 0o777;
      assert((mode & 0o077) === 0, `${path} has mode ${mode.toString(8).padStart(4, '0')}, so other users may read the token in it: write it 0600`);
    },
  },
  {
    id: 'security.loopback-only',
    requirement: 'SC-2',
    title: "the host listens on loopback only: its port answers on none of the machine's other addresses",
    async run({ target }) {
      assert(isLoopback(target.address), `the record says the host listens on ${target.address}, not on a loopback address: listen on 127.0.0.1`);
      for (const address of otherAddresses()) {
        assert(!(await accepts(address, target.port)), `port ${target.port} accepts connections on ${address}, beyond loopback: listen on 127.0.0.1 only`);
      }
    },
  },
  {
    id: 'security.waiting-connections',
    requirement: 'SC-3',
    title: `of ${SILENT_CONNECTIONS} connections that never send a hello, the oldest are closed at once while the newest stay open`,
    async run({ raw }) {
      const silent: RawConnection[] = [];
      // One after another, so that the host accepts them in this order.
      for (let i = 0; i < SILENT_CONNECTIONS; i++) silent.push(await raw());
      const [oldest, newest] = [silent[0] as RawConnection, silent[SILENT_CONNECTIONS - 1] as RawConnection];
      await oldest.expectClose(`the oldest of ${SILENT_CONNECTIONS} connections waiting for their hello (they must be bounded, protocol.md §14)`, AT_ONCE_MS);
      assert(!newest.isClosed, `the newest of ${SILENT_CONNECTIONS} connections waiting for their hello was closed too, at once: the host must close the oldest ones, not every one`);
    },
  },
];

function isLoopback(address: string): boolean {
  return address === 'localhost' || address === '::1' || address.startsWith('127.');
}

/** This machine's IPv4 addresses other than loopback (none on a machine without a network). */
function otherAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => (entry as { address: string }).address);
}

/** Whether a TCP connection to address:port is accepted (refused or silent for 1 s: not). */
function accepts(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    const done = (accepted: boolean): void => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
