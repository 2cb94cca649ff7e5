/**
 * The bound on connections that have not brought a request with the token
 * (pending-connections.ts), on stand-in sockets: the oldest go past the cap, but never in the
 * turn of the event loop that accepted them, so an agent's request that came with its
 * connection is checked first; and each goes at its deadline, whatever it sent.
 * (With real sockets and a real flood: connection-flood.test.ts.)
 */
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PendingConnections, type ShedReason } from '../../src/http/pending-connections.js';

/** A socket as the set uses it: destroy() closes it. */
function fakeSocket(name: string, destroyed: string[]): Socket {
  const socket = new EventEmitter() as EventEmitter & { destroy(): void };
  socket.destroy = () => {
    destroyed.push(name);
    socket.emit('close');
  };
  return socket as unknown as Socket;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PendingConnections', () => {
  it('closes the oldest past the cap one turn after they were accepted, sparing those that passed the check', async () => {
    const destroyed: string[] = [];
    const shed: ShedReason[] = [];
    const pending = new PendingConnections({ timeoutMs: 60_000, max: 2, onShed: (reason) => void shed.push(reason) });
    const sockets = ['s0', 's1', 's2', 's3', 's4'].map((name) => fakeSocket(name, destroyed));
    for (const socket of sockets) pending.admit(socket);
    // The turn that accepted them: nothing is closed yet, their requests have not been read.
    await nextTurn();
    expect(destroyed).toEqual([]);
    // s1's request is read in the next poll phase and passes the token check.
    pending.authenticated(sockets[1]!);
    await nextTurn();
    expect(destroyed).toEqual(['s0', 's2']);
    expect(shed).toEqual(['cap', 'cap']);
    expect(pending.size).toBe(2);
  });

  it('closes a pending connection at its deadline, and not one that passed the check', async () => {
    const destroyed: string[] = [];
    const pending = new PendingConnections({ timeoutMs: 20, max: 10 });
    const silent = fakeSocket('silent', destroyed);
    const agent = fakeSocket('agent', destroyed);
    pending.admit(silent);
    pending.admit(agent);
    pending.authenticated(agent);
    const started = performance.now();
    await new Promise((resolve) => silent.once('close', resolve));
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(destroyed).toEqual(['silent']);
    expect(pending.size).toBe(0);
  });

  it('forgets a connection its peer closed', () => {
    const destroyed: string[] = [];
    const pending = new PendingConnections({ timeoutMs: 60_000, max: 1 });
    const socket = fakeSocket('gone', destroyed);
    pending.admit(socket);
    socket.emit('close');
    expect(pending.size).toBe(0);
  });
});
