/** host/status (protocol.md §7.16): its shape, and a running call listed with its agent while the main thread is blocked. */
import { TetherError, type HostStatusResult } from '../protocol/index.js';
import { assert, assertEqual, show, within } from './assertions.js';
import { CheckSkipped } from './errors.js';
import { KIT, startBlock, uniqueId } from './kit.js';
import type { Session } from './session.js';
import type { Check } from './types.js';

const PROMPT_MS = 1_000;

/** host/status, or a skip for a host that answers METHOD_NOT_FOUND: the method is additive in v1. */
async function hostStatus(session: Session, timeoutMs?: number): Promise<HostStatusResult> {
  try {
    return await session.hostStatus(timeoutMs);
  } catch (error) {
    if (error instanceof TetherError && error.code === 'METHOD_NOT_FOUND') throw new CheckSkipped('the host does not implement host/status (optional in v1, protocol.md §7.16)');
    throw error;
  }
}

export const hostStatusChecks: readonly Check[] = [
  {
    id: 'host.status-shape',
    requirement: 'HT-1',
    title: 'host/status answers the state, the connections (this one with its client name), calls and unknownOutcomes',
    async run({ connect }) {
      const clientName = uniqueId('client');
      const session = await connect({ clientName });
      const status = await hostStatus(session);
      assertEqual(status.state, session.hello.state, 'state (vs. the hello result)');
      assert(status.since <= Date.now() + 1_000, `since must be a past epoch-ms time, got ${status.since}`);
      const own = status.connections.find((c) => c.connectionId === session.hello.connectionId);
      assert(own !== undefined, `connections must list the asking connection "${session.hello.connectionId}": ${show(status.connections)}`);
      assertEqual(own.client.name, clientName, 'client.name of the asking connection');
      assert(own.since <= Date.now() + 1_000, `the connection's since must be a past epoch-ms time, got ${own.since}`);
    },
  },
  {
    id: 'host.status-while-blocked',
    requirement: 'HT-2',
    title: 'host/status lists a running block as running with its agent, within 1 s while the main thread is blocked',
    needs: [KIT.block],
    async run(context) {
      const agent = { name: 'tether-conformance-agent', version: '1.0' };
      const block = await startBlock(context, await context.connect(), 3_000, agent);
      const other = await context.connect();
      const status = await within(hostStatus(other, PROMPT_MS * 2), PROMPT_MS, 'host/status while the main thread is blocked');
      const listed = status.calls.find((c) => c.callId === block.callId);
      assert(listed !== undefined, `calls must list the running block "${block.callId}": ${show(status.calls)}`);
      assertEqual(listed.state, 'running', 'state of the block in host/status');
      assertEqual(listed.tool, KIT.block, 'tool of the block in host/status');
      assertEqual(listed.agent, agent, 'agent of the block in host/status');
      assertEqual(status.calls[0]?.state, 'running', 'state of the first listed call (running calls come first)');
      // Only meaningful if the block still held the main thread when host/status was answered.
      const after = await other.status(block.callId);
      assertEqual(after.state, 'running', 'the blocking call after host/status');
      assertEqual(after.agent, agent, 'agent of the block in calls/status');
    },
  },
];
