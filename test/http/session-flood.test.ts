/**
 * Review finding: one token holder could lock out new HTTP sessions and evict other agents'
 * idle ones. 512 `initialize` in a second filled the interactive pool to its ceiling for the
 * 60 s recency floor (every newcomer got 503), and a flood each minute evicted, least recently
 * used first, every session idle for longer than that.
 *
 * Now eviction takes the sessions nobody has used since their handshake first, then those of
 * the client holding the most, never those of a client holding fewer; and once a pool is at its
 * capacity, a client (address and clientInfo.name) holding half of it in sessions nobody may
 * evict yet gets a typed 429 that says when to retry, while others still get sessions.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe, type Served } from '../helpers/serve.js';

afterEach(async () => {
  await cleanupProcesses();
});

type Answer = { status: number; body: { result?: { tools?: unknown[] }; error?: { message: string; data?: Record<string, unknown> } } };

/** A JSON-RPC request in a session: its HTTP status and its answer (JSON, or the last event of an SSE stream). */
async function post(served: Served, session: Record<string, string>, message: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', ...message }) });
  const text = await response.text();
  const answer = text.startsWith('{') ? text : ([...text.matchAll(/^data: (.+)$/gm)].at(-1)?.[1] ?? 'null');
  return { status: response.status, body: JSON.parse(answer) as Answer['body'] };
}

const listTools = (served: Served, session: Record<string, string>) => post(served, session, { id: 'list', method: 'tools/list' });

function initialize(served: Served, clientName: string): Promise<Response> {
  return fetch(served.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: clientName, version: '1' } } }),
  });
}

async function sessions(served: Served): Promise<{ interactive: { size: number }; evictions: number }> {
  const health = await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } });
  return ((await health.json()) as { sessions: { interactive: { size: number }; evictions: number } }).sessions;
}

describe('a flood of new sessions from one client', () => {
  it.each([
    ['never used', false],
    ['each used once', true],
  ])('evicts none of the sessions that were working before it: sessions %s displace their own', async (_what, used) => {
    // A small pool with no recency floor: before, the agent's session (least recently used) was the first to go.
    const served = await startServe(createWorkspace(), ['--interactive-sessions', '4', '--session-recency-floor-ms', '0']);
    const agent = await openRawSession(served, {}, 'agent');
    expect((await listTools(served, agent)).status).toBe(200);
    const witness = await openRawSession(served, {}, 'witness');
    expect((await listTools(served, witness)).status).toBe(200);

    for (let i = 0; i < 40; i++) {
      const flood = await openRawSession(served, {}, 'flood');
      if (used) expect((await listTools(served, flood)).status).toBe(200);
    }
    // The pool held its capacity by ending flood sessions, 38 of them.
    expect(await sessions(served)).toMatchObject({ interactive: { size: 4 }, evictions: 38 });
    for (const session of [agent, witness]) {
      const answer = await listTools(served, session);
      expect(answer.status).toBe(200);
      expect(answer.body.result?.tools?.length).toBeGreaterThan(0);
    }
  });

  it('gets a typed 429 that says when to retry once the pool is full, while another client still gets a session', async () => {
    // The review's flood against the defaults (capacity 256, ceiling 512): 512 initializes in about a second.
    const served = await startServe(createWorkspace());
    const agent = await openRawSession(served, {}, 'agent');
    expect((await listTools(served, agent)).status).toBe(200);

    const statuses: number[] = [];
    let refusal: { status: number; retryAfter: string | null; body: Answer['body'] } | undefined;
    for (let wave = 0; wave < 16; wave++) {
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          const response = await initialize(served, 'flood');
          const text = await response.text();
          statuses.push(response.status);
          if (response.status !== 200) refusal ??= { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(text) as Answer['body'] };
        }),
      );
    }
    // Admitted while the pool had room (the agent holds one place), refused once it was full.
    expect(statuses.filter((s) => s === 200)).toHaveLength(255);
    expect(statuses.filter((s) => s === 429)).toHaveLength(257);
    expect(refusal!.status).toBe(429);
    // Sessions never used are evictable 10 s after their handshake: that is when to retry.
    expect(Number(refusal!.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refusal!.retryAfter)).toBeLessThanOrEqual(10);
    expect(refusal!.body.error!.data).toMatchObject({ code: 'SESSION_QUOTA', pool: 'interactive', client: 'flood', held: 255, share: 128, retryAfterMs: expect.any(Number) });
    expect(refusal!.body.error!.message).toMatch(
      /^The interactive session pool is full, and this client \("flood" at [^)]+\) holds 255 of its sessions, each in use or used recently \(its share: 128\)\. Retry in \d+ s, end sessions you no longer need \(DELETE\), or keep using one you have open/,
    );

    // Others are not starved: a newcomer gets a session (past the capacity, toward the ceiling), and the agent's goes on.
    const newcomer = await initialize(served, 'newcomer');
    await newcomer.text();
    expect(newcomer.status).toBe(200);
    expect((await listTools(served, agent)).status).toBe(200);
    expect(await sessions(served)).toMatchObject({ interactive: { size: 257 }, evictions: 0 });
  });
});
