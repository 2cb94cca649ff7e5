/**
 * Fuzzing `tether mcp`'s stdin: newline-delimited JSON-RPC as an MCP client writes it, and
 * everything around it. Every stdout line must stay JSON-RPC, the process must live, and a
 * legitimate tools/call between batches must be answered.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { TETHER_BIN, type Workspace } from '../../../test/helpers/processes.js';
import { adopt } from '../lib/children.js';
import { INSPECT_ENV, inspectorUrl } from '../lib/heap-probe.js';
import { sampleProcess } from '../lib/proc.js';
import type { BatchTally, FuzzDriver } from './campaign.js';
import { HARNESS_ID } from './host-peer.js';
import { nested } from './host-inputs.js';
import { jsonText, mcpVocabulary, messageArbitrary, sampleBatch } from './messages.js';
import { Mutator, int, randomBytes } from './mutator.js';

const INITIALIZE = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } };

/** Valid lines the mutator starts from. */
const LINE_CORPUS = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: INITIALIZE },
  { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_hierarchy', arguments: {} } },
  { jsonrpc: '2.0', id: 3, method: 'tools/list' },
  { jsonrpc: '2.0', id: 4, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
  { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'find_gameobjects', arguments: { name: 'Player' }, _meta: { progressToken: 7, 'tether/idempotencyKey': 'k' } } },
].map((m) => Buffer.from(jsonText(m)));

/** The lines of one batch, from its seed alone. */
export function stdinLines(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const structured = sampleBatch(messageArbitrary(mcpVocabulary(), { batches: true }), seed, count);
  const mutator = new Mutator(random, LINE_CORPUS, 4_096);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.8) lines.push(jsonText(structured[i]));
    else if (roll < 0.9) lines.push(mutator.next().toString('utf8'));
    else if (roll < 0.95) lines.push(randomBytes(random, 1 + int(random, 128)).toString('latin1'));
    else if (roll < 0.999) lines.push(nested(random, 30 + int(random, 5_000)));
    else lines.push(jsonText({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'find_gameobjects', arguments: { name: 'x'.repeat(256 * 1024) } } }));
  }
  return lines;
}

class McpProcess {
  readonly child: ChildProcess;
  messages = 0;
  corrupt = 0;
  stderrTail = '';
  /** Its inspector's URL, from the line Node prints on stderr. */
  inspector: string | undefined;
  private readonly waiters = new Map<string, () => void>();
  private readonly answered = new Set<string>();
  private readonly exited: Promise<unknown>;

  constructor(workspace: Workspace) {
    const env = { ...workspace.env, ...INSPECT_ENV };
    this.child = adopt(spawn(process.execPath, [TETHER_BIN, 'mcp', '--project', workspace.project], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
    this.child.stdin!.on('error', () => undefined);
    this.exited = once(this.child, 'exit');
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2_000);
      this.inspector ??= inspectorUrl([this.stderrTail]);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.receive(line));
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  private receive(line: string): void {
    let message: { jsonrpc?: unknown; id?: unknown };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      this.corrupt++;
      return;
    }
    if (message === null || typeof message !== 'object' || message.jsonrpc !== '2.0') this.corrupt++;
    this.messages++;
    if (typeof message.id === 'string' && message.id.startsWith(HARNESS_ID)) {
      this.answered.add(message.id);
      this.waiters.get(message.id)?.();
    }
  }

  async write(text: string): Promise<void> {
    if (!this.alive) return;
    if (!this.child.stdin!.write(text)) await Promise.race([new Promise((resolve) => this.child.stdin!.once('drain', resolve)), this.exited]);
  }

  /** Sends a request with a harness id; true once answered, false after `ms` or when the process is gone. */
  async ask(id: string, method: string, params: unknown, ms: number): Promise<boolean> {
    const answered = new Promise<void>((resolve) => this.waiters.set(id, resolve));
    await this.write(`${jsonText({ jsonrpc: '2.0', id, method, params })}\n`);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answered, this.exited, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    this.waiters.delete(id);
    return this.answered.delete(id);
  }

  async initialize(): Promise<void> {
    if (!(await this.ask(`${HARNESS_ID}init`, 'initialize', INITIALIZE, 20_000))) throw new Error(`tether mcp did not answer initialize; stderr: ${this.stderrTail}`);
    await this.write(`${jsonText({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }
}

export async function mcpStdinDriver(workspace: Workspace): Promise<FuzzDriver> {
  let front = new McpProcess(workspace);
  await front.initialize();
  let legit = 0;
  const past = { messages: 0, corrupt: 0 };
  return {
    name: "tether mcp's stdin",
    pid: () => front.child.pid!,
    sample: () => sampleProcess(front.child.pid!),
    inspector: () => front.inspector,
    async legitCall() {
      const id = `${HARNESS_ID}legit-${legit++}`;
      return (await front.ask(id, 'tools/call', { name: 'get_hierarchy', arguments: {} }, 15_000)) ? undefined : `no answer to ${id}${front.alive ? '' : ' (the process is gone)'}`;
    },
    async reviveIfDead() {
      if (front.alive) return undefined;
      const death = `${front.child.signalCode ? `killed by ${front.child.signalCode}` : `exited with code ${front.child.exitCode}`}; stderr: ${front.stderrTail.slice(-500)}`;
      past.messages += front.messages;
      past.corrupt += front.corrupt;
      front = new McpProcess(workspace);
      await front.initialize();
      return death;
    },
    async runBatch(_batch, seed, size): Promise<BatchTally> {
      const corruptBefore = front.corrupt;
      const lines = stdinLines(seed, size);
      let written = 0;
      for (let i = 0; i < lines.length && front.alive; i += 256) {
        const slice = lines.slice(i, i + 256);
        await front.write(`${slice.join('\n')}\n`);
        written += slice.length;
      }
      return { inputs: written, corruptOutput: front.corrupt - corruptBefore };
    },
    describe: () => `the front wrote ${(past.messages + front.messages).toLocaleString('en-US')} JSON-RPC messages on stdout`,
    close: async () => {
      front.child.stdin!.end();
    },
  };
}
