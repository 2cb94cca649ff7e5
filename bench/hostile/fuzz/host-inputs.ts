/**
 * Inputs for the host's parsers: Content-Length frames, what a stranger sends before the
 * handshake and what an authenticated peer sends after it. Every input is made from the
 * batch's seed alone.
 */
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { frame, request } from '../../../src/conformance/raw-connection.js';
import { Mutator, int, pick, randomBytes, type Random } from './mutator.js';
import { hostVocabulary, jsonText, messageArbitrary, sampleBatch } from './messages.js';

/** A body of `depth` nested arrays (or objects), the input that once stalled the host for seconds. */
export function nested(random: Random, depth: number): string {
  return random() < 0.5 ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function framedText(body: string): Buffer {
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${bytes.length}\r\n\r\n`), bytes]);
}

/** Valid and nearly valid frames the mutator starts from. */
function frameCorpus(): Buffer[] {
  // A hello whose proof is wrong, made by hand: helloFrame draws a fresh nonce, and a seed must replay every byte.
  const hello = request(1, 'tether/hello', { proof: { nonce: 'fuzz-nonce-0123456789', mac: 'not-a-mac' }, protocolVersion: 1, client: { name: 'fuzz' } });
  return [
    hello,
    Buffer.concat([hello, request(2, 'tools/list')]),
    request(1, 'ping'),
    request('a', 'calls/start', { callId: 'c1', tool: 'get_hierarchy', arguments: {} }),
    request(3, 'tether/hello', { token: 'not-the-token', protocolVersion: 1, client: { name: 'x' } }),
    frame({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }),
    frame({ jsonrpc: '2.0', id: 9, result: {} }),
    Buffer.from('Content-Type: application/json; charset=utf-8\r\nContent-Length: 36\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"x"}'),
    Buffer.from('Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}'),
    Buffer.from('content-length:2\r\n\r\n[]'),
  ];
}

/** Header blocks a frame reader must refuse or take: odd lengths, odd separators, many lines. */
function headerFuzz(random: Random): Buffer {
  const body = jsonText({ jsonrpc: '2.0', id: int(random, 100), method: 'ping' });
  const length = pick(random, [String(body.length), '-1', '0', ' 5', '5 ', '0x10', '1e3', '999999999999999', '65536', '65537', '67108865', '', body.length + 1, body.length - 1].map(String));
  const lines = [`${pick(random, ['Content-Length', 'content-length', 'CONTENT-LENGTH', 'Content-Length ', 'Content-Lengt'])}:${pick(random, ['', ' ', '  '])}${length}`];
  const extra = int(random, 4);
  for (let i = 0; i < extra; i++) lines.push(pick(random, ['Content-Type: application/json; charset=latin1', 'X: y', ':', 'no colon', 'A'.repeat(int(random, 9_000)), 'Content-Length: 1']));
  if (random() < 0.5) lines.reverse();
  const separator = pick(random, ['\r\n', '\n', '\r', '\r\n\r\n']);
  return Buffer.from(`${lines.join(separator)}\r\n\r\n${body}`);
}

/** Inputs a stranger sends on a fresh connection, one connection each. */
export function preHandshakeInputs(seed: number, count: number): Buffer[] {
  const random = seededRandom(seed);
  const mutator = new Mutator(random, frameCorpus());
  const structured = sampleBatch(messageArbitrary(hostVocabulary(), { batches: false }), seed, count);
  const inputs: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.4) inputs.push(mutator.next());
    else if (roll < 0.75) inputs.push(frame(structured[i]));
    else if (roll < 0.85) inputs.push(headerFuzz(random));
    else if (roll < 0.95) inputs.push(randomBytes(random, 1 + int(random, 256)));
    else inputs.push(framedText(nested(random, 50 + int(random, 20_000))));
  }
  return inputs;
}

/**
 * Frames an authenticated peer sends, one batch to be written in order: well-framed messages
 * (most), bodies that are not JSON or nest deep (answered, the connection kept), and at the
 * end, sometimes, a frame that breaks the framing (the host closes; the harness reconnects).
 */
export function postHandshakeFrames(seed: number, count: number): Buffer[] {
  const random = seededRandom(seed);
  const structured = sampleBatch(messageArbitrary(hostVocabulary(), { batches: false }), seed, count);
  const textMutator = new Mutator(
    random,
    structured.slice(0, 32).map((m) => Buffer.from(jsonText(m))),
    4_096,
  );
  const frames: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.86) frames.push(frame(structured[i]));
    else if (roll < 0.95) frames.push(framedText(textMutator.next().toString('utf8')));
    else frames.push(framedText(nested(random, 30 + int(random, 5_000))));
  }
  if (random() < 0.3) frames[frames.length - 1] = pick(random, [headerFuzz(random), randomBytes(random, 64), Buffer.from('Content-Length: 99999999999\r\n\r\n')]);
  return frames;
}
