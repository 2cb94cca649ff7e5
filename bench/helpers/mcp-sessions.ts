/**
 * Opens 2025-11-25 MCP sessions over HTTP with raw fetch, as a client that does not listen on
 * a GET stream does: initialize, then notifications/initialized. Shared by the memory scenario
 * and the serve-live-heap helper.
 */
const PROTOCOL = '2025-11-25';

export async function openSession(url: string, token: string | undefined): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-sessions', version: '1' } } }),
  });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (!init.ok || !id) throw new Error(`initialize failed: HTTP ${init.status}`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  if (!initialized.ok) throw new Error(`notifications/initialized failed: HTTP ${initialized.status}`);
  return id;
}

/** Opens `count` sessions, 16 at a time. */
export async function openSessions(url: string, token: string | undefined, count: number): Promise<void> {
  const concurrency = 16;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        await openSession(url, token);
      }
    }),
  );
}
