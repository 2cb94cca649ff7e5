/**
 * The requests a session has not answered hold it in its registry until the last answer. A
 * client may send an id again while the first request with it runs (JSON-RPC asks it not to,
 * but one re-sending a request whose stream dropped does): the first answer must not give the
 * pin back while the second runs, or the session could be evicted and its call cancelled.
 */
import type { JSONRPCMessage, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { UnansweredRequests } from '../../src/http/unanswered-requests.js';

/** The two members of the SDK's transport that UnansweredRequests wraps. */
function transportStandIn(): WebStandardStreamableHTTPServerTransport & { receive(message: JSONRPCMessage): void } {
  const transport = {
    onmessage: undefined as ((message: JSONRPCMessage, extra?: unknown) => void) | undefined,
    send: async (): Promise<void> => undefined,
    receive(message: JSONRPCMessage) {
      transport.onmessage?.(message);
    },
  };
  return transport as unknown as WebStandardStreamableHTTPServerTransport & { receive(message: JSONRPCMessage): void };
}

const call = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'build_player', arguments: {} } });
const answer = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });

describe('UnansweredRequests', () => {
  it('holds the pin from the first request to the last answer', async () => {
    let pins = 0;
    const requests = new UnansweredRequests(() => (pins++, () => pins--));
    const transport = transportStandIn();
    requests.watch(transport);
    transport.receive(call(1));
    transport.receive(call(2));
    expect([pins, requests.size]).toEqual([1, 2]);
    await transport.send(answer(1));
    expect([pins, requests.size]).toEqual([1, 1]);
    await transport.send(answer(2));
    expect([pins, requests.size]).toEqual([0, 0]);
  });

  it('keeps the pin while a second request with the same id runs after the first is answered', async () => {
    let pins = 0;
    const requests = new UnansweredRequests(() => (pins++, () => pins--));
    const transport = transportStandIn();
    requests.watch(transport);
    transport.receive(call(7));
    transport.receive(call(7));
    await transport.send(answer(7));
    expect([pins, requests.size]).toEqual([1, 1]);
    await transport.send(answer(7));
    expect([pins, requests.size]).toEqual([0, 0]);
  });

  it('takes a cancelled request as answered, and an unknown answer as nothing', async () => {
    let pins = 0;
    const requests = new UnansweredRequests(() => (pins++, () => pins--));
    const transport = transportStandIn();
    requests.watch(transport);
    transport.receive(call(3));
    await transport.send(answer(99));
    expect(pins).toBe(1);
    transport.receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    expect([pins, requests.size]).toEqual([0, 0]);
  });
});
