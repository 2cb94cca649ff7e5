/**
 * checkRequest, the guard every request of `tether serve` passes first, on real requests: a
 * plain HTTP server on an ephemeral port answers with what the guard decided, so each case is
 * a real IncomingMessage with the headers a client really sent (fetch cannot set Host).
 * The bearer token is compared in full, not by its length: a wrong token of the right length
 * is as wrong as any other.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest, loopbackHosts, type GuardOptions, type Refusal } from '../../src/http/request-guards.js';
import { sameLengthWrong } from '../helpers/serve.js';

const TOKEN = randomBytes(32).toString('base64url');
/** The real token with its last character changed: the same length, and wrong. */
const SAME_LENGTH = sameLengthWrong(TOKEN);

const guards: GuardOptions = {
  allowedHosts: loopbackHosts(['unity-box.lan']),
  allowedOrigins: new Set(['https://ide.example:8443']),
  token: TOKEN,
  maxBodyBytes: 1_024,
};

/** How the server asks: `x-check: preflight` or `x-check: no-bearer` (the dashboard's public paths). */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    const check = req.headers['x-check'];
    const refusal = checkRequest(req, guards, { preflight: check === 'preflight', bearer: check !== 'no-bearer' });
    res.writeHead(200, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ refusal: refusal ?? null }));
    req.resume();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What checkRequest said of a POST /mcp with these headers (Host: the server's own unless given). */
function guard(headers: Record<string, string>, options: { path?: string; body?: string } = {}): Promise<Refusal | null> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: options.path ?? '/mcp', method: 'POST', headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve((JSON.parse(text) as { refusal: Refusal | null }).refusal));
    });
    req.on('error', reject);
    req.end(options.body ?? '');
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const unauthorized = { status: 401, code: 'UNAUTHORIZED', challenge: expect.stringMatching(/^Bearer realm="tether", error="invalid_token"/) };

describe('checkRequest', () => {
  it('admits the right token, and refuses a missing header, another scheme and every wrong token, one of the same length included', async () => {
    // The positive control: the same request with the right token passes, so each refusal below is the token's.
    expect(await guard(bearer(TOKEN))).toBeNull();
    expect(await guard({ authorization: `bearer ${TOKEN}` })).toBeNull(); // the scheme is case-insensitive (RFC 9110 §11.1)
    expect(SAME_LENGTH).toHaveLength(TOKEN.length);
    expect(SAME_LENGTH).not.toBe(TOKEN);
    const refused = {
      missing: await guard({}),
      empty: await guard({ authorization: '' }),
      basicScheme: await guard({ authorization: `Basic ${TOKEN}` }),
      noScheme: await guard({ authorization: TOKEN }),
      bearerOnly: await guard({ authorization: 'Bearer' }),
      sameLength: await guard(bearer(SAME_LENGTH)),
      firstCharacterChanged: await guard(bearer(`${TOKEN.startsWith('A') ? 'B' : 'A'}${TOKEN.slice(1)}`)),
      shorter: await guard(bearer(TOKEN.slice(0, -1))),
      longer: await guard(bearer(`${TOKEN}A`)),
      twoWords: await guard({ authorization: `Bearer ${TOKEN} ${TOKEN}` }),
    };
    expect(refused).toEqual(Object.fromEntries(Object.keys(refused).map((key) => [key, expect.objectContaining(unauthorized)])));
  });

  it('refuses a Host it does not serve (403) before it looks at the token, and serves the loopback names and the allowed ones', async () => {
    expect(await guard({ ...bearer(TOKEN), host: 'evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_HOST' });
    expect(await guard({ ...bearer(TOKEN), host: `evil.example:${port}` })).toMatchObject({ status: 403, code: 'FORBIDDEN_HOST' });
    // Host first: a stranger without the token learns nothing about it from a misaddressed request.
    expect(await guard({ host: 'evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_HOST' });
    for (const host of [`localhost:${port}`, `[::1]:${port}`, 'unity-box.lan', 'UNITY-BOX.LAN:7420']) expect(await guard({ ...bearer(TOKEN), host }), host).toBeNull();
  });

  it('refuses an Origin a browser page elsewhere sends (403), and admits loopback pages and the allowed origins', async () => {
    for (const origin of ['https://evil.example', 'https://ide.example', 'http://ide.example:8443', 'null']) {
      expect(await guard({ ...bearer(TOKEN), origin }), origin).toMatchObject({ status: 403, code: 'FORBIDDEN_ORIGIN' });
    }
    expect(await guard({ origin: 'https://evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_ORIGIN' });
    for (const origin of ['https://ide.example:8443', `http://127.0.0.1:${port}`, 'http://localhost:3000']) expect(await guard({ ...bearer(TOKEN), origin }), origin).toBeNull();
    // An allowed origin still needs the token.
    expect(await guard({ origin: 'https://ide.example:8443', ...bearer(SAME_LENGTH) })).toMatchObject(unauthorized);
  });

  it('checks only Host and Origin on a preflight and on the paths that carry no token, and the body size after the token', async () => {
    expect(await guard({ 'x-check': 'preflight', origin: 'https://ide.example:8443' })).toBeNull();
    expect(await guard({ 'x-check': 'preflight', origin: 'https://evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_ORIGIN' });
    expect(await guard({ 'x-check': 'preflight', host: 'evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_HOST' });
    expect(await guard({ 'x-check': 'no-bearer' })).toBeNull();
    expect(await guard({ 'x-check': 'no-bearer', host: 'evil.example' })).toMatchObject({ status: 403, code: 'FORBIDDEN_HOST' });
    const large = 'x'.repeat(guards.maxBodyBytes + 1);
    expect(await guard(bearer(TOKEN), { body: large })).toMatchObject({ status: 413, code: 'BODY_TOO_LARGE' });
    expect(await guard(bearer(SAME_LENGTH), { body: large })).toMatchObject(unauthorized);
    expect(await guard(bearer(TOKEN), { body: 'x'.repeat(guards.maxBodyBytes) })).toBeNull();
  });
});
