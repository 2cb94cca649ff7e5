/**
 * The request guards of a real `tether serve`, at the edges: the address it was told to bind
 * and prints is served, whatever loopback address it is, and so are the names and origins it
 * was told to allow, and no others; a request target that is not a URL is a bad request, not
 * an internal error (with the target, which may hold a token, logged).
 */
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowedHostName, allowedOrigin, bindHostName } from '../../src/http/request-guards.js';
import { TetherProcess, cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe, type Served } from '../helpers/serve.js';

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** An initialize sent to the server's own socket with the Host (and Origin) given: fetch cannot set Host. */
function initializeAs(served: Served, headers: { host: string; origin?: string }): Promise<{ status: number; body: string }> {
  const url = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: '/mcp',
        method: 'POST',
        headers: { ...headers, authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(initialize);
  });
}

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
    // Its own pages (the dashboard) are at its own origin: a request from there passes the
    // guards (and then needs its token or login, as any). Another port is another origin.
    const { host } = new URL(served.url);
    expect((await initializeAs(served, { host, origin: `http://${host}` })).status).toBe(200);
    const elsewhere = await initializeAs(served, { host, origin: `http://127.0.0.2:${Number(new URL(served.url).port) + 1}` });
    expect(JSON.parse(elsewhere.body)).toMatchObject({ error: 'FORBIDDEN_ORIGIN' });
  });

  it('serves the host names and origins named with --allowed-host and --allowed-origin, and still refuses others', async () => {
    const served = await startServe(createWorkspace(), ['--allowed-host', 'Unity-Box.lan:7420', '--allowed-host', 'fe80::1', '--allowed-origin', 'https://ide.example:8443/']);
    expect((await initializeAs(served, { host: 'unity-box.lan:7420' })).status).toBe(200);
    expect((await initializeAs(served, { host: 'UNITY-BOX.LAN' })).status).toBe(200);
    expect((await initializeAs(served, { host: '[fe80::1]:7420' })).status).toBe(200);
    expect((await initializeAs(served, { host: 'unity-box.lan', origin: 'https://ide.example:8443' })).status).toBe(200);
    // The server's own origin under an allowed name: the dashboard, reached by that name.
    expect((await initializeAs(served, { host: 'unity-box.lan', origin: `http://unity-box.lan:${new URL(served.url).port}` })).status).toBe(200);

    const otherHost = await initializeAs(served, { host: 'other-box.lan' });
    expect(otherHost.status).toBe(403);
    expect(JSON.parse(otherHost.body)).toMatchObject({ error: 'FORBIDDEN_HOST', message: expect.stringContaining('--allowed-host') });
    // An origin is its scheme, host and port: another port or scheme is another origin.
    for (const origin of ['https://ide.example', 'http://ide.example:8443', 'https://evil.example']) {
      const refused = await initializeAs(served, { host: 'unity-box.lan', origin });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body)).toMatchObject({ error: 'FORBIDDEN_ORIGIN', message: expect.stringContaining('--allowed-origin') });
    }
  });

  it('lets a browser page at an allowed origin call it: preflight without the token, then the session id readable', async () => {
    const served = await startServe(createWorkspace(), ['--allowed-origin', 'https://ide.example:8443']);
    const page = 'https://ide.example:8443';
    const asked = 'authorization, content-type, mcp-protocol-version, mcp-session-id';
    const preflight = (origin: string) => fetch(served.url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': asked } });
    // A browser sends no credentials with a preflight: it is answered on Host and Origin alone.
    const allowed = await preflight(page);
    expect(allowed.status).toBe(204);
    expect(Object.fromEntries(allowed.headers)).toMatchObject({
      'access-control-allow-origin': page,
      'access-control-allow-methods': expect.stringContaining('POST'),
      'access-control-allow-headers': asked,
      vary: 'Origin',
    });
    const stranger = await preflight('https://evil.example');
    expect(stranger.status).toBe(403);
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();

    // The request itself still needs the token; the page may read why it was refused, and, once in, its session id.
    const headers = { origin: page, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const tokenless = await fetch(served.url, { method: 'POST', headers, body: initialize });
    expect(tokenless.status).toBe(401);
    expect(tokenless.headers.get('access-control-allow-origin')).toBe(page);
    const admitted = await fetch(served.url, { method: 'POST', headers: { ...headers, authorization: `Bearer ${served.token}` }, body: initialize });
    await admitted.text();
    expect(admitted.status).toBe(200);
    expect(admitted.headers.get('access-control-allow-origin')).toBe(page);
    expect(admitted.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    expect(admitted.headers.get('mcp-session-id')).toBeTruthy();
  });

  it('refuses to start with an --allowed-host or --allowed-origin it would have to guess at', async () => {
    for (const args of [
      ['--allowed-host', 'http://unity-box.lan/'],
      ['--allowed-host', '*.lan'],
      ['--allowed-origin', 'ide.example'],
      ['--allowed-origin', 'https://ide.example/app'],
    ]) {
      const server = new TetherProcess(['serve', '--port', '0', ...args], createWorkspace().env);
      expect(await server.exited).toBe(2);
      expect(server.stderr).toContain(`${args[0]} "${args[1]}" is not`);
    }
  });

  it('warns beyond loopback that the token travels in clear, and when it serves no name a remote client would use', async () => {
    const workspace = createWorkspace();
    const cleartext = 'the bearer token crosses the network in clear text';
    const unnamed = 'name the hosts remote clients use with --allowed-host';
    const bare = await startServe(workspace, ['--host', '0.0.0.0', '--allow-remote']);
    await bare.server.stop();
    expect(bare.server.stderr).toContain(cleartext);
    expect(bare.server.stderr).toContain(unnamed);
    const named = await startServe(workspace, ['--host', '0.0.0.0', '--allow-remote', '--allowed-host', 'unity-box.lan']);
    await named.server.stop();
    expect(named.server.stderr).toContain(cleartext);
    expect(named.server.stderr).not.toContain(unnamed);
    const loopback = await startServe(workspace, ['--allowed-host', 'unity-box.lan']);
    await loopback.server.stop();
    expect(loopback.server.stderr).not.toContain(cleartext);
  });

  it('names allowed hosts and origins as requests carry them', () => {
    expect(allowedHostName('Unity-Box.LAN')).toBe('unity-box.lan');
    expect(allowedHostName('unity-box.lan:7420')).toBe('unity-box.lan');
    // A fully qualified name's dot: the Host header it is compared with cannot carry it.
    expect(allowedHostName('unity-box.lan.')).toBe('unity-box.lan');
    expect(allowedHostName('FE80::1')).toBe('[fe80::1]');
    expect(allowedHostName('[fe80::1]')).toBe('[fe80::1]');
    for (const bad of ['', '.', 'a b', 'user@box', 'box/path', 'box:port', '*.lan']) expect(() => allowedHostName(bad)).toThrow(/is not a host name/);
    expect(allowedOrigin('HTTPS://IDE.example:443/')).toBe('https://ide.example');
    expect(allowedOrigin('http://ide.example:8080')).toBe('http://ide.example:8080');
    for (const bad of ['ide.example', 'ftp://ide.example', 'https://ide.example/app', 'https://u@ide.example', 'https://ide.example/?x=1']) {
      expect(() => allowedOrigin(bad)).toThrow(/is not an origin/);
    }
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

  it('refuses with 400 a target that is not a path (absolute URL, //host/path, *), token or not, and never answers 500', async () => {
    const workspace = createWorkspace();
    const served = await startServe(workspace);
    const { hostname, port } = new URL(served.url);
    const authority = `${hostname}:${port}`;
    const statusOf = (request: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(request));
        let answer = '';
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString();
          if (answer.includes('\r\n')) {
            resolve(answer.slice(0, answer.indexOf('\r\n')));
            socket.destroy();
          }
        });
        socket.on('error', reject);
      });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const headers = `Host: ${authority}\r\nAuthorization: Bearer ${served.token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    // The absolute form with the token once reached the SDK's adapter, which joined Host and target into a URL that is none: a 500.
    for (const target of [`http://${authority}/mcp`, `http://127.0.0.1:1/mcp`, `//${authority}/mcp`, '//evil.example/mcp', '*']) {
      for (const method of ['POST', 'OPTIONS', 'PATCH']) {
        expect(`${method} ${target}: ${await statusOf(`${method} ${target} HTTP/1.1\r\n${headers}`)}`).toBe(`${method} ${target}: HTTP/1.1 400 Bad Request`);
      }
    }
    // The path form of the same requests is served: a session is needed (400 from the endpoint, not the guard), or 405.
    expect(await statusOf(`PATCH /mcp HTTP/1.1\r\n${headers}`)).toBe('HTTP/1.1 405 Method Not Allowed');
    expect((await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } })).status).toBe(503);
  });

  it('refuses with 400 a Host header that is not host[:port], or that comes twice, and goes on serving', async () => {
    const served = await startServe(createWorkspace());
    const { hostname, port } = new URL(served.url);
    /**
     * The status line of a raw request with these Host lines: http.request would refuse to send most of them.
     * `repeatedAs`: how the lines after the first spell the header's name (its case is not significant).
     */
    const statusWith = (hostLines: string[], repeatedAs = 'Host'): Promise<string> =>
      new Promise((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port) }, () => {
          const head = [
            `POST /mcp HTTP/1.1`,
            ...hostLines.map((h, i) => `${i === 0 ? 'Host' : repeatedAs}: ${h}`),
            `Authorization: Bearer ${served.token}`,
            'Content-Type: application/json',
            'Accept: application/json, text/event-stream',
            `Content-Length: ${Buffer.byteLength(initialize)}`,
            'Connection: close',
          ];
          socket.end(`${head.join('\r\n')}\r\n\r\n${initialize}`);
        });
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
        socket.on('error', reject);
      });
    for (const host of [`evil.example@${hostname}:${port}`, `${hostname}:${port}/x`, `${hostname}:${port}#x`, `${hostname}:${port}?x`, `${hostname}:port`]) {
      expect(await statusWith([host]), host).toMatch(/^HTTP\/1\.1 400 /);
    }
    expect(await statusWith([`${hostname}:${port}`, 'evil.example'])).toMatch(/^HTTP\/1\.1 400 /);
    expect(await statusWith([`${hostname}:${port}`, 'evil.example'], 'hOST')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await statusWith([`${hostname}:${port}`])).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('names a bind address as a Host header does: lower case, IPv6 bracketed and shortened', () => {
    expect(bindHostName('127.0.0.2')).toBe('127.0.0.2');
    expect(bindHostName('FE80:0:0:0:0:0:0:1')).toBe('[fe80::1]');
    expect(bindHostName('Example.Internal')).toBe('example.internal');
  });
});
