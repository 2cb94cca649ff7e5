/**
 * The bench host: a Tether host built on the host SDK with a trivial read-only `echo` tool
 * and a `payload` tool, so the bridge is measured without the sandbox's worker hop.
 *
 *   node bench/results/.build/bench-host.js --project DIR [--prewarm text:50,png:10]
 *
 * Prints one JSON line when listening: {event:'ready', pid, port, instanceId, recordAt},
 * where recordAt is the wall-clock time (ms, sub-ms precision) right after the host record
 * was written. TETHER_HOME says where the record goes.
 */
import { performance } from 'node:perf_hooks';
import { Host } from 'tether-mcp/host';
import { ECHO_TOOL, PAYLOAD_TOOL, payloadResult, prewarm, type PayloadKind } from './payloads.js';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const project = option('project');
if (!project) throw new Error('--project is required');

prewarm(option('prewarm'));

const host = new Host({ kind: 'bench', name: 'Bench host', version: '1.0.0', projectPath: project });
host.tool({
  ...ECHO_TOOL,
  input: ECHO_TOOL.inputSchema,
  annotations: { ...ECHO_TOOL.annotations },
  handler: (args) => String((args as { text?: unknown }).text ?? 'pong'),
});
host.tool({
  ...PAYLOAD_TOOL,
  input: PAYLOAD_TOOL.inputSchema as unknown as Record<string, unknown>,
  annotations: { ...PAYLOAD_TOOL.annotations },
  handler: (args) => {
    const { kind, mb } = args as { kind: PayloadKind; mb: number };
    return payloadResult(kind, mb) as never;
  },
});

const { port } = await host.start();
const recordAt = performance.timeOrigin + performance.now();
process.stdout.write(`${JSON.stringify({ event: 'ready', pid: process.pid, port, instanceId: host.identity.instanceId, recordAt })}\n`);

const stop = (): void => {
  void host.close({ reason: 'shutdown' }).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
