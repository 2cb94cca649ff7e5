/**
 * Attacks on the host protocol: an authenticated peer sends frames of deeply nested arrays,
 * many at once, while another client keeps calling; and a stranger's every refusal is read
 * for the token, TETHER_HOME and the user's home folder.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { connectToHost } from '../../../src/link/host-client.js';
import { helloFrame, request } from '../../../src/conformance/raw-connection.js';
import { createWorkspace } from '../../../test/helpers/processes.js';
import { HostPeer, HARNESS_ID } from '../fuzz/host-peer.js';
import { EditorTarget } from '../lib/targets.js';
import { readFileSync } from 'node:fs';

export interface NestingOutcome {
  frames: number;
  frameMiB: number;
  /** The other client's calls during the attack: answered latencies, and failures. */
  latencies: number[];
  failures: string[];
  /** The host's peak RSS (VmHWM) growth over the attack, MiB. */
  peakGrowthMiB: number;
  /** Attack frames the host answered with a refusal. */
  refused: number;
}

function peakKiB(pid: number): number {
  try {
    return Number(/^VmHWM:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  } catch {
    return NaN;
  }
}

/** `frames` frames of `frameMiB` MiB of nested arrays, each on its own authenticated connection, at once. */
export async function nestingCase(frames: number, frameMiB: number): Promise<NestingOutcome> {
  const editor = await EditorTarget.start(createWorkspace());
  const before = peakKiB(editor.pid);
  const half = (frameMiB * 2 ** 20) / 2 - 64;
  const body = Buffer.concat([
    Buffer.from(`{"jsonrpc":"2.0","id":"${HARNESS_ID}deep","method":"calls/start","params":{"callId":"deep","tool":"get_hierarchy","arguments":`),
    Buffer.alloc(half, '['),
    Buffer.alloc(half, ']'),
    Buffer.from('}}'),
  ]);
  const framed = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);

  const peers: HostPeer[] = [];
  for (let i = 0; i < frames; i++) {
    const peer = await HostPeer.open(editor.port, []);
    peer.write(helloFrame(`${HARNESS_ID}hello`, { token: editor.token }));
    if (!(await peer.answerTo(`${HARNESS_ID}hello`, 10_000))) throw new Error('the host refused a valid hello');
    peers.push(peer);
  }
  const latencies: number[] = [];
  const failures: string[] = [];
  let attacking = true;
  const client = await connectToHost({ port: editor.port, token: editor.token, clientName: 'attack-witness' });
  const witness = (async () => {
    while (attacking) {
      const started = performance.now();
      try {
        await client.rpc.request('calls/start', { callId: randomUUID(), tool: 'get_hierarchy', arguments: {} }, { timeoutMs: 30_000 });
        latencies.push(performance.now() - started);
      } catch (error) {
        failures.push((error as Error).message);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  for (const peer of peers) peer.write(framed);
  const refused = await Promise.all(peers.map((peer) => peer.answerTo(`${HARNESS_ID}deep`, 120_000)));
  attacking = false;
  await witness;
  client.rpc.close();
  for (const peer of peers) peer.destroy();
  return { frames, frameMiB, latencies, failures, peakGrowthMiB: (peakKiB(editor.pid) - before) / 1024, refused: refused.filter(Boolean).length };
}

export interface StrangerOutcome {
  /** Refusals sent to strangers that held the token, TETHER_HOME or the user's home folder. */
  leaks: string[];
  answers: number;
}

/** A stranger's every kind of refusal: a wrong proof, the token's old path, a request before hello, a notification, garbage. */
export async function strangerCase(): Promise<StrangerOutcome> {
  const editor = await EditorTarget.start(createWorkspace());
  const attempts: Buffer[] = [
    helloFrame(1, { token: randomBytes(16).toString('hex') }),
    request(2, 'tether/hello', { token: 'guess', protocolVersion: 1, client: { name: 'x' } }),
    request(3, 'tools/list'),
    Buffer.from('Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","method":"calls/status"}'),
    Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'),
    request(4, 'tether/hello', { proof: { nonce: 'n'.repeat(16), mac: 'x' }, protocolVersion: 99, client: { name: 'x' } }),
  ];
  const leaks: string[] = [];
  let answers = 0;
  for (const bytes of attempts) {
    const peer = await HostPeer.open(editor.port, editor.secrets());
    peer.write(bytes);
    await peer.closedWithin(5_000);
    peer.destroy();
    answers += peer.tally.messages;
    if (peer.tally.leaks.length > 0) leaks.push(`${JSON.stringify(bytes.toString('latin1').slice(0, 80))} got an answer holding ${peer.tally.leaks.length} secret(s)`);
  }
  return { leaks, answers };
}
