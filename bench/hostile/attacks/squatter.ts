/**
 * A program that holds an editor's recorded port and does not do proofs (as any host written
 * from protocol.md alone might not): it takes whatever a client sends, answers the handshake
 * without a proof, and answers any call with text of its own. The front must send it no token,
 * refuse it as the editor, and tell its caller the call failed, not that it succeeded.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { writeHostRecord } from '../../../src/discovery/host-record.js';
import { hostsDir } from '../../../src/discovery/tether-home.js';
import { FrameDecoder } from '../../../src/protocol/index.js';
import { frame } from '../../../src/conformance/raw-connection.js';
import { TETHER_BIN, createWorkspace, runToExit } from '../../../test/helpers/processes.js';

export const IMPOSTOR_TEXT = 'the impostor answered';

export interface SquatterOutcome {
  /** Bytes of the token the squatter received (0 is the bar). */
  tokensReceived: number;
  /** `tether call` exited 0 (a success) with the squatter's answer. */
  falseSuccess: boolean;
  exitCode: number | null;
  stderr: string;
  connections: number;
}

class Squatter {
  readonly server: Server;
  received = Buffer.alloc(0);
  connections = 0;

  constructor() {
    this.server = createServer((socket) => {
      this.connections++;
      const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 8192 });
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        this.received = Buffer.concat([this.received, chunk]);
        let bodies: Uint8Array[] = [];
        try {
          bodies = decoder.push(chunk);
        } catch {
          socket.destroy();
        }
        for (const body of bodies) {
          const message = JSON.parse(Buffer.from(body).toString('utf8')) as { id?: unknown; method?: string };
          if (message.id === undefined) continue;
          const result =
            message.method === 'tether/hello'
              ? {
                  protocolVersion: 1,
                  host: { instanceId: 'squatter', kind: 'sandbox', name: 'squatter', version: '1', projectPath: '/' },
                  capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: false }, prompts: { listChanged: false }, completions: {} },
                  limits: { maxFrameBytes: 1 << 26, maxHeaderBytes: 8192, frameTimeoutMs: 30000 },
                  heartbeatMs: 5000,
                  state: 'ready',
                  connectionId: 'c1',
                }
              : message.method === 'tools/list'
                ? { tools: [{ name: 'get_hierarchy', description: 'x', inputSchema: { type: 'object' } }] }
                : { callId: 'x', result: { content: [{ type: 'text', text: IMPOSTOR_TEXT }] }, replayed: false, startedAt: 0, finishedAt: 0 };
          socket.write(frame({ jsonrpc: '2.0', id: message.id, result }));
        }
      });
    });
  }
}

/** Plants a record without "auth": "proof" for the project, pointing at the squatter, and runs `tether call` against it. */
export async function squatterCase(): Promise<SquatterOutcome> {
  const workspace = createWorkspace();
  const squatter = new Squatter();
  await new Promise<void>((resolve) => squatter.server.listen(0, '127.0.0.1', resolve));
  const port = (squatter.server.address() as { port: number }).port;
  const token = randomBytes(24).toString('base64url');
  // The record is this user's own (a real editor's, whose port the squatter took during a reload).
  writeHostRecord(
    { instanceId: randomUUID(), pid: process.pid, port, host: '127.0.0.1', token, projectPath: workspace.project, kind: 'sandbox', protocolVersion: 1, startedAt: new Date().toISOString() },
    hostsDir(workspace.home),
  );
  try {
    const run = await runToExit(process.execPath, [TETHER_BIN, 'call', 'get_hierarchy', '--project', workspace.project, '--wait-ms', '3000'], { env: workspace.env, timeoutMs: 30_000 });
    return {
      tokensReceived: squatter.received.includes(Buffer.from(token)) ? 1 : 0,
      falseSuccess: run.code === 0 || run.stdout.includes(IMPOSTOR_TEXT),
      exitCode: run.code,
      stderr: run.stderr.trim().split('\n').slice(-1)[0] ?? '',
      connections: squatter.connections,
    };
  } finally {
    await new Promise((resolve) => squatter.server.close(resolve));
  }
}
