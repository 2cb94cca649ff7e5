/**
 * Fuzz drivers for the host (the sandbox editor's listener): strangers' frames on fresh
 * connections before any handshake, and an authenticated peer's frames after it.
 */
import { helloFrame, request } from '../../../src/conformance/raw-connection.js';
import type { EditorTarget } from '../lib/targets.js';
import type { BatchTally, FuzzDriver } from './campaign.js';
import { HARNESS_ID, HostPeer } from './host-peer.js';
import { postHandshakeFrames, preHandshakeInputs } from './host-inputs.js';

/** Connections a stranger's batch keeps open at once: under the host's 32 pending handshakes, so a legitimate client still gets in. */
const STRANGERS_AT_ONCE = 16;
/** How long the harness waits for the host to close a connection it has ended its side of. */
const CLOSE_WAIT_MS = 3_000;

/** Runs `work` over `items` with at most `width` at a time. */
export async function inParallel<T>(items: readonly T[], width: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index] as T, index);
      }
    }),
  );
}

export function preHandshakeDriver(editor: EditorTarget): FuzzDriver {
  return {
    name: 'host frames before the handshake',
    pid: () => editor.pid,
    sample: () => editor.sample(),
    inspector: () => editor.inspector(),
    legitCall: () => editor.legitCall(),
    reviveIfDead: () => editor.reviveIfDead(),
    close: async () => undefined,
    async runBatch(_batch, seed, size): Promise<BatchTally> {
      const tally = { inputs: 0, servedBeforeAuth: 0, leaks: 0 };
      let refused = 0;
      await inParallel(preHandshakeInputs(seed, size), STRANGERS_AT_ONCE, async (input) => {
        if (refused > 3) return; // the host is gone: the campaign counts the crash
        let peer: HostPeer;
        try {
          peer = await HostPeer.open(editor.port, editor.secrets());
        } catch {
          refused++;
          return;
        }
        peer.write(input);
        peer.end();
        await peer.closedWithin(CLOSE_WAIT_MS);
        peer.destroy();
        tally.inputs++;
        if (peer.tally.nonErrors > 0) tally.servedBeforeAuth++;
        if (peer.tally.leaks.length > 0) tally.leaks++;
      });
      return tally;
    },
  };
}

export function postHandshakeDriver(editor: EditorTarget): FuzzDriver {
  let peer: HostPeer | undefined;
  const seen = { connections: 0, messages: 0, results: 0 };

  const authenticated = async (): Promise<HostPeer> => {
    if (peer?.isOpen) return peer;
    if (peer) {
      seen.messages += peer.tally.messages;
      seen.results += peer.tally.nonErrors;
      peer.destroy();
    }
    seen.connections++;
    const fresh = await HostPeer.open(editor.port, []);
    fresh.write(helloFrame(`${HARNESS_ID}hello`, { token: editor.token }));
    if (!(await fresh.answerTo(`${HARNESS_ID}hello`, 10_000))) throw new Error('the host did not answer a valid hello');
    peer = fresh;
    return fresh;
  };

  return {
    name: 'host frames after the handshake',
    pid: () => editor.pid,
    sample: () => editor.sample(),
    inspector: () => editor.inspector(),
    legitCall: () => editor.legitCall(),
    reviveIfDead: async () => {
      const death = await editor.reviveIfDead();
      if (death) peer = undefined;
      return death;
    },
    describe: () => {
      const messages = seen.messages + (peer?.tally.messages ?? 0);
      const results = seen.results + (peer?.tally.nonErrors ?? 0);
      return `${seen.connections} authenticated connections (a batch that breaks the framing, or reloads the editor, ends one); the host sent ${messages.toLocaleString('en-US')} messages, ${results.toLocaleString('en-US')} of them results or notifications`;
    },
    close: async () => peer?.destroy(),
    async runBatch(batch, seed, size): Promise<BatchTally> {
      let connection: HostPeer;
      try {
        connection = await authenticated();
      } catch {
        return { inputs: 0 }; // the host is away (a reload asked for by the last batch, or a crash): counted by the campaign
      }
      const frames = postHandshakeFrames(seed, size);
      // Written in slices: the host reads only as fast as this side reads its answers.
      for (let i = 0; i < frames.length && connection.isOpen; i += 64) connection.write(Buffer.concat(frames.slice(i, i + 64)));
      const barrier = `${HARNESS_ID}barrier-${batch}`;
      connection.write(request(barrier, 'ping'));
      await connection.answerTo(barrier, 15_000);
      // Unanswered because the batch broke the framing or reloaded the editor: the next batch reconnects.
      return { inputs: frames.length };
    },
  };
}
