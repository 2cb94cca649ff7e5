/**
 * A fast-path call's context (call-context.ts) stands in for the one the SDK's
 * `Server.buildContext` builds: the same request fields, and its `notify`, `log`,
 * `elicitInput` and `requestSampling` send what the SDK's send, with the same options, and
 * give the same answers. Checked side by side on one real Server and client in memory.
 */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { Server, type JSONRPCMessage, type RequestId, type ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { fastCallContext } from '../../src/mcp/fast-path/call-context.js';
import { CallSignal } from '../../src/mcp/fast-path/call-signal.js';

type Sent = { message: JSONRPCMessage; options: unknown };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A server with logging, a client that answers questions and sampling, and what the server sends. */
async function connected(): Promise<{ server: Server; client: Client; sent: Sent[] }> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const sent: Sent[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (message, options) => {
    sent.push({ message, options });
    return send(message, options);
  };
  const server = new Server({ name: 'context-test', version: '1' }, { capabilities: { logging: {}, tools: {} } });
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: { form: {} }, sampling: {} }, versionNegotiation: { mode: 'legacy' } });
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { answer: 'yes' } }));
  client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'm' }));
  await client.connect(clientSide);
  closers.push(() => client.close());
  return { server, client, sent };
}

/** The context the SDK's Server builds for the same request, as the fast path once built it. */
function sdkContext(server: Server, id: RequestId, meta: Record<string, unknown> | undefined, signal: CallSignal): ServerContext {
  return (server as unknown as { buildContext(ctx: unknown): ServerContext }).buildContext({
    sessionId: undefined,
    mcpReq: {
      id,
      method: 'tools/call',
      _meta: meta,
      signal: signal.asAbortSignal(),
      notify: (notification: { method: string; params?: Record<string, unknown> }, options?: object) => server.notification(notification as never, { ...options, relatedRequestId: id }),
    },
    http: undefined,
  });
}

/** What was sent, without the ids the server numbers its own requests with. */
function withoutRequestIds(sent: Sent[]): unknown[] {
  return sent.map(({ message, options }) => ({ message: 'method' in message && 'id' in message ? { ...message, id: '(request id)' } : message, options }));
}

/** Runs `use` on each context, one after the other, and returns what each sent and answered. */
async function sideBySide(use: (ctx: ServerContext) => Promise<unknown>, setUp?: (client: Client) => Promise<void>): Promise<Array<{ answers: unknown; sent: unknown[] }>> {
  const sides: Array<{ answers: unknown; sent: unknown[] }> = [];
  for (const build of [sdkContext, fastCallContext]) {
    const { server, client, sent } = await connected();
    await setUp?.(client);
    sent.length = 0;
    const answers = await use(build(server, 7, { progressToken: 'p' }, new CallSignal()));
    sides.push({ answers, sent: withoutRequestIds(sent) });
  }
  return sides;
}

describe('fastCallContext', () => {
  it('carries the request as the SDK context does', async () => {
    const { server } = await connected();
    const signal = new CallSignal();
    const fast = fastCallContext(server, 'call-1', { progressToken: 3 }, signal);
    const sdk = sdkContext(server, 'call-1', { progressToken: 3 }, signal);
    expect(fast.sessionId).toBe(sdk.sessionId);
    expect(fast.http).toBe(sdk.http);
    for (const key of ['id', 'method', '_meta', 'signal'] as const) expect(fast.mcpReq[key]).toStrictEqual(sdk.mcpReq[key]);
    expect(fast.mcpReq.signal).toBe(signal);
  });

  it('notifies as the SDK context does, related to the request', async () => {
    const [sdk, fast] = await sideBySide(async (ctx) => {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: 'p', progress: 1, message: 'half' } });
    });
    expect(fast).toStrictEqual(sdk);
    expect(sdk?.sent).toHaveLength(1);
  });

  it('logs as the SDK context does: at or above the client’s level, not below', async () => {
    const log = async (ctx: ServerContext): Promise<void> => {
      await ctx.mcpReq.log('debug', 'hidden');
      await ctx.mcpReq.log('error', { what: 'shown' }, 'editor');
      await ctx.mcpReq.log('warning', 'shown too');
    };
    const [sdk, fast] = await sideBySide(log, (client) => client.setLoggingLevel('warning').then(() => undefined));
    expect(fast).toStrictEqual(sdk);
    expect(sdk?.sent).toHaveLength(2);
    // Without a level set, everything goes out.
    const [sdkAll, fastAll] = await sideBySide(log);
    expect(fastAll).toStrictEqual(sdkAll);
    expect(sdkAll?.sent).toHaveLength(3);
  });

  it('asks the client and samples as the SDK context does, with the same answers', async () => {
    const [sdk, fast] = await sideBySide(async (ctx) => [
      await ctx.mcpReq.elicitInput({ message: 'Proceed?', requestedSchema: { type: 'object', properties: { answer: { type: 'string' } } } }, { relatedRequestId: ctx.mcpReq.id }),
      await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }, { relatedRequestId: ctx.mcpReq.id }),
    ]);
    expect(fast).toStrictEqual(sdk);
    expect(sdk?.answers).toMatchObject([{ action: 'accept', content: { answer: 'yes' } }, { model: 'm' }]);
    expect(sdk?.sent).toHaveLength(2);
  });
});
