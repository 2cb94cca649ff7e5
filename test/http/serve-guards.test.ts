/**
 * The request guards of a real `tether serve`, at the edges: the address it was told to bind
 * and prints is served, whatever loopback address it is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bindHostName } from '../../src/http/request-guards.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe } from '../helpers/serve.js';

afterEach(async () => {
  await cleanupProcesses();
});

describe('tether serve guards', () => {
  it('serves the URL it printed when bound to another loopback address than 127.0.0.1', async () => {
    const served = await startServe(createWorkspace(), ['--host', '127.0.0.2']);
    expect(new URL(served.url).hostname).toBe('127.0.0.2');
    const session = await openRawSession(served);
    const listed = await fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    expect(listed.status).toBe(200);
    await listed.text();
  });

  it('names a bind address as a Host header does: lower case, IPv6 bracketed and shortened', () => {
    expect(bindHostName('127.0.0.2')).toBe('127.0.0.2');
    expect(bindHostName('FE80:0:0:0:0:0:0:1')).toBe('[fe80::1]');
    expect(bindHostName('Example.Internal')).toBe('example.internal');
  });
});
