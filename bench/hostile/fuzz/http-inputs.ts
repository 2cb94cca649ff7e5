/**
 * Inputs for `tether serve`: whole HTTP/1.1 requests as bytes (request line, headers, body,
 * pipelined or smuggled), and JSON-RPC bodies for an authenticated session. Each generated
 * request knows whether it carries the token as a client would send it, so the judge knows
 * which answers must be refusals.
 */
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { nested } from './host-inputs.js';
import { jsonText, mcpVocabulary, messageArbitrary, sampleBatch } from './messages.js';
import { Mutator, int, pick, randomBytes, type Random } from './mutator.js';

export interface HttpInput {
  bytes: Buffer;
  /**
   * True when the bytes hold the token anywhere. The judge asks whether anything is served to
   * a request without the token; how strictly the server parses the header that carries it
   * is another question (a token holder's odd request may be taken).
   */
  authenticated: boolean;
}

export interface ServeAddress {
  hostHeader: string;
  token: string;
}

const INITIALIZE = jsonText({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } });

function requestText(lines: readonly string[], body = ''): string {
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

function corpus(address: ServeAddress): Buffer[] {
  const { hostHeader, token } = address;
  const post = (auth: string[], body: string): string =>
    requestText(
      [`POST /mcp HTTP/1.1`, `Host: ${hostHeader}`, ...auth, 'Content-Type: application/json', 'Accept: application/json, text/event-stream', `Content-Length: ${Buffer.byteLength(body)}`],
      body,
    );
  return [
    post([], INITIALIZE),
    post([`Authorization: Bearer ${token}`], INITIALIZE),
    post(['Authorization: Bearer wrong'], INITIALIZE),
    requestText([`GET /healthz HTTP/1.1`, `Host: ${hostHeader}`]),
    requestText([`GET /metrics HTTP/1.1`, `Host: ${hostHeader}`, `Authorization: Bearer ${token}`]),
    requestText([`GET /status HTTP/1.1`, `Host: ${hostHeader}`]),
    requestText([`OPTIONS /mcp HTTP/1.1`, `Host: ${hostHeader}`, 'Origin: http://localhost:3000', 'Access-Control-Request-Method: POST']),
    requestText([`DELETE /mcp HTTP/1.1`, `Host: ${hostHeader}`, 'Mcp-Session-Id: 00000000-0000-0000-0000-000000000000']),
    requestText([`POST /mcp HTTP/1.1`, `Host: ${hostHeader}`, 'Transfer-Encoding: chunked', 'Content-Type: application/json'], `${INITIALIZE.length.toString(16)}\r\n${INITIALIZE}\r\n0\r\n\r\n`),
    requestText([`GET /.well-known/oauth-protected-resource HTTP/1.1`, `Host: ${hostHeader}`]),
  ].map((text) => Buffer.from(text, 'latin1'));
}

function generated(random: Random, address: ServeAddress, body: string): HttpInput {
  const { hostHeader, token } = address;
  const method = pick(random, ['GET', 'POST', 'POST', 'POST', 'DELETE', 'OPTIONS', 'PUT', 'HEAD', 'PATCH', 'CONNECT', 'get', 'P0ST']);
  const target = pick(random, [
    '/mcp',
    '/mcp',
    '/healthz',
    '/status',
    '/metrics',
    '/',
    '/mcp?token=' + token.slice(0, 4),
    '//mcp',
    '/mcp/../healthz',
    '/%2e%2e/',
    '*',
    `http://${hostHeader}/mcp`,
    '/mcp#x',
    'mcp',
  ]);
  const version = pick(random, ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'HTTP/9']);
  const lines = [`${method} ${target} ${version}`];
  const hosts = pick(random, [
    [hostHeader],
    [hostHeader],
    [],
    [`evil.example@${hostHeader}`],
    [`${hostHeader}/x`],
    [hostHeader, 'evil.example'],
    ['localhost'],
    ['127.0.0.1:1'],
    ['[::1]'],
    [`${hostHeader}:80`],
  ]);
  for (const host of hosts) lines.push(`Host: ${host}`);
  const authRoll = random();
  const authenticated = authRoll < 0.3;
  if (authenticated) lines.push(`${pick(random, ['Authorization', 'authorization'])}: Bearer ${token}`);
  else if (authRoll < 0.5)
    lines.push(
      pick(random, [
        'Authorization: Bearer wrong',
        'Authorization: Basic eDp5',
        'Authorization: Bearer',
        `Authorization: Bearer ${token}x`,
        `Authorization: Bearer ${token.slice(0, -1)}`,
        `Authorization: bearer  ${token.toUpperCase()}`,
      ]),
    );
  if (random() < 0.3) lines.push(`Origin: ${pick(random, ['http://localhost:3000', 'https://evil.example', 'null', 'http://127.0.0.1', 'file://'])}`);
  if (random() < 0.7) lines.push(`Content-Type: ${pick(random, ['application/json', 'text/plain', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x'])}`);
  if (random() < 0.7) lines.push(`Accept: ${pick(random, ['application/json, text/event-stream', 'text/event-stream', '*/*', 'application/json'])}`);
  if (random() < 0.3) lines.push(`Mcp-Session-Id: ${pick(random, ['00000000-0000-0000-0000-000000000000', 'x', '', '../../etc'])}`);
  if (random() < 0.2) lines.push(`Mcp-Protocol-Version: ${pick(random, ['2025-11-25', '2026-07-28', '1999-01-01', ''])}`);
  if (random() < 0.1) lines.push(`Last-Event-ID: ${pick(random, ['0', 'x_1', '../'])}`);
  const length = Buffer.byteLength(body);
  const framing = random();
  if (framing < 0.75) lines.push(`Content-Length: ${length}`);
  else if (framing < 0.85) lines.push(`Content-Length: ${pick(random, [length + 5, Math.max(0, length - 5), -1, 99_999_999, 0])}`);
  else if (framing < 0.95) lines.push('Transfer-Encoding: chunked', ...(random() < 0.5 ? [`Content-Length: ${length}`] : []));
  const chunked = lines.some((l) => l.startsWith('Transfer-Encoding'));
  const payload = chunked ? `${length.toString(16)}\r\n${body}\r\n0\r\n\r\n` : body;
  if (random() < 0.1)
    lines.splice(
      1 + int(random, lines.length - 1),
      0,
      pick(random, ['X-Long: ' + 'a'.repeat(int(random, 70_000)), 'Bad Header', ' folded', 'X:\x00', 'Connection: keep-alive', 'Expect: 100-continue']),
    );
  const bytes = Buffer.from(requestText(lines, payload), 'utf8');
  return { bytes, authenticated: authenticated || bytes.includes(token) };
}

/** Requests for fresh connections, one each. */
export function httpRequests(seed: number, count: number, address: ServeAddress): HttpInput[] {
  const random = seededRandom(seed);
  const mutator = new Mutator(random, corpus(address), 96 * 1024);
  const bodies = sampleBatch(messageArbitrary(mcpVocabulary(), { batches: true }), seed, count).map(jsonText);
  const inputs: HttpInput[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.45) {
      const bytes = mutator.next();
      inputs.push({ bytes, authenticated: bytes.includes(address.token) });
    } else if (roll < 0.85) {
      inputs.push(generated(random, address, bodies[i]!));
    } else if (roll < 0.93) {
      inputs.push({ bytes: randomBytes(random, 1 + int(random, 512)), authenticated: false });
    } else {
      // Two requests on one connection: a stranger's smuggled behind, or ahead of, another.
      const a = generated(random, address, bodies[i]!);
      const b = generated(random, address, INITIALIZE);
      inputs.push({ bytes: Buffer.concat(random() < 0.5 ? [a.bytes, b.bytes] : [b.bytes, a.bytes]), authenticated: a.authenticated || b.authenticated });
    }
  }
  return inputs;
}

/** JSON-RPC bodies for POST /mcp in an authenticated session. */
export function jsonRpcBodies(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const structured = sampleBatch(messageArbitrary(mcpVocabulary(), { batches: true }), seed, count).map(jsonText);
  const mutator = new Mutator(
    random,
    structured.slice(0, 32).map((text) => Buffer.from(text)),
    8_192,
  );
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.82) bodies.push(structured[i]!);
    else if (roll < 0.92) bodies.push(mutator.next().toString('utf8'));
    else if (roll < 0.96) bodies.push(randomBytes(random, 1 + int(random, 256)).toString('latin1'));
    else bodies.push(nested(random, 30 + int(random, 20_000)));
  }
  return bodies;
}
