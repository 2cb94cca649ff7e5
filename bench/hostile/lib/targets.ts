/**
 * The processes under attack, started as the tests start them (test/helpers/): a sandbox
 * editor, `tether serve`. Each target notices when its process died, says how, and starts it
 * again, so a crash is counted and the run goes on; and each can make one legitimate call, the
 * check between fuzz batches that the target still serves the people it is for.
 */
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { listHostRecords } from '../../../src/discovery/host-record.js';
import { writePrivateFile } from '../../../src/discovery/secure-file.js';
import { tokenPath } from '../../../src/http/serve-state.js';
import { seededRandom } from '../../../test/chaos/chaos-scenario.js';
import { hostsDir } from '../../../src/discovery/tether-home.js';
import { connectToHost } from '../../../src/link/host-client.js';
import { startSandbox, type SandboxProcess, type Workspace } from '../../../test/helpers/processes.js';
import { openRawSession, startServe, type Served } from '../../../test/helpers/serve.js';
import { INSPECT_ENV, inspectorUrl } from './heap-probe.js';
import { sampleProcess, type ProcessSample } from './proc.js';

/** Short editor durations: a fuzzed build or reload must not stall the run. */
export const FAST_EDITOR = ['--build-seconds', '0.05', '--reload-ms', '100', '--compile-ms', '20', '--test-ms', '5'];

/** The workspace with the inspector open on a free loopback port, so the live heap can be measured after a collection. */
function inspected(workspace: Workspace): Workspace {
  return { ...workspace, env: { ...workspace.env, ...INSPECT_ENV } };
}

function exitOf(child: { exitCode: number | null; signalCode: NodeJS.Signals | null }): string | undefined {
  if (child.signalCode !== null) return `killed by ${child.signalCode}`;
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  return undefined;
}

function tail(text: string, lines = 8): string {
  return text.trim().split('\n').slice(-lines).join(' / ');
}

export class EditorTarget {
  /** How each death went, with the end of its stderr. */
  readonly deaths: string[] = [];
  port = 0;
  token = '';

  private constructor(
    readonly workspace: Workspace,
    public sandbox: SandboxProcess,
    private readonly args: string[],
  ) {}

  static async start(workspace: Workspace, args: string[] = []): Promise<EditorTarget> {
    const { sandbox, ready } = await startSandbox(inspected(workspace), [...FAST_EDITOR, ...args]);
    const target = new EditorTarget(workspace, sandbox, args);
    target.adopt(ready.instanceId, ready.port);
    return target;
  }

  private adopt(instanceId: string, port: number): void {
    const record = listHostRecords(hostsDir(this.workspace.home)).find((r) => r.instanceId === instanceId);
    if (!record) throw new Error(`the sandbox's record ${instanceId} is missing`);
    this.port = port;
    this.token = record.token;
  }

  get pid(): number {
    return this.sandbox.pid;
  }

  /** What must never reach an unauthenticated peer. */
  secrets(): string[] {
    return [this.token, this.workspace.home, homedir()].filter((s) => s.length > 1);
  }

  /** Starts the editor again if it died; returns how it died, or undefined when it was alive. */
  async reviveIfDead(): Promise<string | undefined> {
    const death = exitOf(this.sandbox.child);
    if (!death) return undefined;
    const described = `${death}; stderr: ${tail(this.sandbox.stderr)}`;
    this.deaths.push(described);
    const { sandbox, ready } = await startSandbox(inspected(this.workspace), [...FAST_EDITOR, ...this.args]);
    this.sandbox = sandbox;
    this.adopt(ready.instanceId, ready.port);
    return described;
  }

  /** One call a real front would make, on a fresh authenticated connection: undefined when answered, else why not. */
  async legitCall(timeoutMs = 15_000): Promise<string | undefined> {
    try {
      const session = await connectToHost({ port: this.port, token: this.token, timeoutMs, clientName: 'hostile-legit' });
      try {
        const answer = (await session.rpc.request('calls/start', { callId: randomUUID(), tool: 'get_hierarchy', arguments: {} }, { timeoutMs })) as { result?: { isError?: boolean } };
        return answer.result && !answer.result.isError ? undefined : `unexpected answer ${JSON.stringify(answer).slice(0, 200)}`;
      } finally {
        session.rpc.close();
      }
    } catch (error) {
      return (error as Error).message;
    }
  }

  sample(): ProcessSample | undefined {
    return sampleProcess(this.pid);
  }

  inspector(): string | undefined {
    return inspectorUrl(this.sandbox.stderrLines);
  }
}

export class ServeTarget {
  readonly deaths: string[] = [];
  private session: Record<string, string> | undefined;
  private nextId = 0;

  private constructor(
    readonly workspace: Workspace,
    public served: Served,
    private readonly args: string[],
  ) {}

  /**
   * Starts `tether serve`; given a seed, with a token made from it (written where serve keeps
   * its token, 0600), so that inputs made with the token replay byte for byte.
   */
  static async start(workspace: Workspace, args: string[] = [], seed?: number): Promise<ServeTarget> {
    if (seed !== undefined) {
      const random = seededRandom(seed ^ 0x7e7e7e7e);
      writePrivateFile(tokenPath(workspace.home), `${Buffer.from(Array.from({ length: 32 }, () => Math.floor(random() * 256))).toString('base64url')}\n`);
    }
    return new ServeTarget(workspace, await startServe(inspected(workspace), args), args);
  }

  get pid(): number {
    return this.served.server.pid;
  }

  get url(): URL {
    return new URL(this.served.url);
  }

  secrets(): string[] {
    return [this.served.token, this.workspace.home, homedir()].filter((s) => s.length > 1);
  }

  async reviveIfDead(): Promise<string | undefined> {
    const death = exitOf(this.served.server.child);
    if (!death) return undefined;
    const described = `${death}; stderr: ${tail(this.served.server.stderr)}`;
    this.deaths.push(described);
    this.served = await startServe(inspected(this.workspace), this.args);
    this.session = undefined;
    return described;
  }

  /** A tools/call an agent would make, in the harness's own session: undefined when answered, else why not. */
  async legitCall(timeoutMs = 15_000): Promise<string | undefined> {
    try {
      this.session ??= await openRawSession(this.served, {}, 'hostile-legit');
      const response = await fetch(this.served.url, {
        method: 'POST',
        headers: this.session,
        body: JSON.stringify({ jsonrpc: '2.0', id: `legit-${this.nextId++}`, method: 'tools/call', params: { name: 'get_hierarchy', arguments: {} } }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      if (response.status === 404) this.session = undefined; // evicted or reaped: a new one next time
      return response.ok && text.includes('"result"') && !text.includes('"isError":true') ? undefined : `HTTP ${response.status}: ${text.slice(0, 200)}`;
    } catch (error) {
      this.session = undefined;
      return (error as Error).message;
    }
  }

  sample(): ProcessSample | undefined {
    return sampleProcess(this.pid);
  }

  inspector(): string | undefined {
    return inspectorUrl(this.served.server.stderrLines);
  }
}
