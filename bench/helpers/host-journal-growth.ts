/**
 * The host hop alone, and whether its cost grows with the call journal: a host (host SDK)
 * and a link client in one process, calls/start of the trivial `echo` tool back to back,
 * timed in windows. (Before the journal's prune was amortized, the cost per call grew with
 * the calls of the last retention window; before its read-only budget kept a queue, with
 * the entries it held once it was full.) BUDGET is the host's readOnlyBudgetBytes.
 *
 *   node host-journal-growth.js CALLS WINDOW [BUDGET]  → {windows: [µs per call, …]}
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Host } from 'tether-mcp/host';

type HostClient = typeof import('../../dist/link/host-client.js');
// Resolved from bench/results/.build/ at run time.
const { connectToHost } = (await import(new URL('../../../dist/link/host-client.js', import.meta.url).href)) as HostClient;

const [calls = '20000', window = '2000', budget] = process.argv.slice(2);
const host = new Host({
  kind: 'bench',
  name: 'journal growth',
  version: '1',
  projectPath: '/nonexistent',
  advertise: false,
  ...(budget ? { readOnlyBudgetBytes: Number(budget) } : {}),
});
host.tool({
  name: 'echo',
  description: 'echo',
  input: { type: 'object', properties: { text: { type: 'string' } } },
  annotations: { readOnlyHint: true },
  handler: (args) => String((args as { text?: unknown }).text),
});
const { port } = await host.start();
const { rpc } = await connectToHost({ port, token: host.token });
const windows: number[] = [];
let start = performance.now();
for (let i = 1; i <= Number(calls); i++) {
  await rpc.request('calls/start', { callId: randomUUID(), tool: 'echo', arguments: { text: 'ping' } });
  if (i % Number(window) === 0) {
    const now = performance.now();
    windows.push(Math.round(((now - start) * 1000) / Number(window)));
    start = now;
  }
}
process.stdout.write(`${JSON.stringify({ windows })}\n`);
process.exit(0);
