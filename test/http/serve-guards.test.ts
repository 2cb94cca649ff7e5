/**
 * The request guards of a real `tether serve`, at the edges: the address it was told to bind
 * and prints is served, whatever loopback address it is; a request target that is not a URL
 * is a bad request, not an internal error (with the target, which may hold a token, logged).
 */
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
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

  it('answers a request target that is not a URL with 400, and logs no error', async () => {
    const workspace = createWorkspace();
    const served = await startServe(workspace);
    const { hostname, port } = new URL(served.url);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => {
        socket.end(`GET http://[?access_token=${served.token} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`);
      });
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toContain('"error":"BAD_REQUEST"');
    // The server still answers (503: no editor here), and logged no error (pino level 50 and up) and not the token.
    expect((await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } })).status).toBe(503);
    const log = join(workspace.home, 'logs', 'serve.log');
    const lines = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
    expect(lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 50)).toEqual([]);
    expect(lines.join('\n')).not.toContain(served.token);
  });

  it('names a bind address as a Host header does: lower case, IPv6 bracketed and shortened', () => {
    expect(bindHostName('127.0.0.2')).toBe('127.0.0.2');
    expect(bindHostName('FE80:0:0:0:0:0:0:1')).toBe('[fe80::1]');
    expect(bindHostName('Example.Internal')).toBe('example.internal');
  });
});
