/**
 * A pool's capacity bends (sessions in use or used within the recency floor are not evicted)
 * but its ceiling does not: a burst of initializes past twice the capacity is refused with a
 * 503 that says what happened and what to do, and the sessions already there carry on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe, type Served } from '../helpers/serve.js';

afterEach(async () => {
  await cleanupProcesses();
});

/** The sessions part of /healthz: pool sizes and evictions. */
async function sessionsOf(served: Served): Promise<unknown> {
  const health = await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } });
  return ((await health.json()) as { sessions: unknown }).sessions;
}

describe('a session pool at its ceiling', () => {
  it('refuses initialize with a 503 and a typed, actionable error, and keeps the sessions it has', async () => {
    const served = await startServe(createWorkspace(), ['--interactive-sessions', '2']);
    // All used within the 60 s recency floor: none may be evicted, so the pool grows to 2 x 2.
    const sessions = [];
    for (let i = 0; i < 4; i++) sessions.push(await openRawSession(served));
    await expect(openRawSession(served)).rejects.toThrow('initialize was answered with HTTP 503');

    const refused = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'one-too-many', version: '1' } } }),
    });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const { error } = (await refused.json()) as { error: { code: number; message: string; data: Record<string, unknown> } };
    expect(error.data).toMatchObject({ code: 'SESSION_LIMIT', pool: 'interactive', ceiling: 4 });
    expect(error.message).toMatch(/^The interactive session pool is full: 4 sessions.*retry in \d+ s, end sessions you no longer need \(DELETE\), or reuse one/);

    for (const headers of sessions) {
      const listed = await fetch(served.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }) });
      expect(listed.status).toBe(200);
      await listed.text();
    }
  });

  it('keeps no place for an initialize the SDK refused, and evicts nobody for it: its client never got the id', async () => {
    const served = await startServe(createWorkspace(), ['--interactive-sessions', '2', '--session-recency-floor-ms', '0']);
    // A full pool of sessions any new one may evict (no recency floor).
    const sessions = [await openRawSession(served), await openRawSession(served)];
    const initialize = (params: unknown, accept = 'application/json, text/event-stream') =>
      fetch(served.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }),
      });
    // Twice the pool's capacity (its ceiling) of refusals: malformed, and an Accept header without SSE.
    for (let i = 0; i < 2; i++) {
      const malformed = await initialize({});
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('mcp-session-id')).toBeNull();
      const unacceptable = await initialize({ protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'json-only', version: '1' } }, 'application/json');
      expect(unacceptable.status).toBe(406);
    }
    const health = () => sessionsOf(served);
    await expect.poll(health).toMatchObject({ interactive: { size: 2 }, evictions: 0 });
    for (const headers of sessions) {
      const listed = await fetch(served.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }) });
      expect(listed.status).toBe(200);
      await listed.text();
    }
    // A client the SDK takes makes room as before: the least recently used goes.
    await openRawSession(served);
    expect(await health()).toMatchObject({ interactive: { size: 2 }, evictions: 1 });
  });

  it('evicts nobody at its ceiling for an initialize the SDK refuses, and still makes room for one it takes', async () => {
    // Capacity 1, ceiling 2; used sessions are kept for 300 ms, then may be evicted.
    const served = await startServe(createWorkspace(), ['--interactive-sessions', '1', '--session-recency-floor-ms', '300']);
    const sessions = [await openRawSession(served), await openRawSession(served)];
    const health = () => sessionsOf(served);
    expect(await health()).toMatchObject({ interactive: { size: 2 }, evictions: 0 });
    // Past the floor both may be evicted: the pool sits at its ceiling, and a newcomer would make room.
    await new Promise((resolve) => setTimeout(resolve, 400));
    const unacceptable = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'json-only', version: '1' } } }),
    });
    expect(unacceptable.status).toBe(406);
    await unacceptable.text();
    expect(await health()).toMatchObject({ interactive: { size: 2 }, evictions: 0 });
    for (const headers of sessions) {
      const listed = await fetch(served.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }) });
      expect(listed.status).toBe(200);
      await listed.text();
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
    const taken = await openRawSession(served);
    expect(await health()).toMatchObject({ interactive: { size: 1 }, evictions: 2 });
    const listed = await fetch(served.url, { method: 'POST', headers: taken, body: JSON.stringify({ jsonrpc: '2.0', id: 'list', method: 'tools/list' }) });
    expect(listed.status).toBe(200);
    await listed.text();
  });

  it('opens no session for an initialize sent as a notification: nothing could answer it with the id', async () => {
    const served = await startServe(createWorkspace(), ['--interactive-sessions', '1']);
    const notification = await fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'no-id', version: '1' } } }),
    });
    expect(notification.status).toBe(400);
    expect(notification.headers.get('mcp-session-id')).toBeNull();
    expect(((await notification.json()) as { error: { code: number; message: string } }).error).toMatchObject({ code: -32600, message: expect.stringContaining('give it an "id"') });
    const health = () => sessionsOf(served);
    expect(await health()).toMatchObject({ interactive: { size: 0 } });
  });
});
