/**
 * Agents that make non-idempotent calls without idempotency keys, over `tether mcp` (stdio)
 * and `tether serve` (HTTP), and report what they were told, classified: it ran, it did not
 * run, its outcome is unknown, or another failure. A client that vanishes mid-call is told
 * nothing: unknown.
 */
import { connectMcp, type McpSession } from '../../../test/helpers/mcp-client.js';
import type { Workspace } from '../../../test/helpers/processes.js';
import { openRawSession, type Served } from '../../../test/helpers/serve.js';

export type Told = 'succeeded' | 'not-run' | 'unknown' | 'failed';

/** Codes that tell a client its call never ran (docs/errors.md). */
const NOT_RUN = new Set(['HOST_UNAVAILABLE', 'HOST_NOT_FOUND', 'SHUTTING_DOWN']);
/** Codes that tell a client its call's fate is unknown. */
const UNKNOWN = new Set(['OUTCOME_UNKNOWN', 'EVICTED', 'CONNECTION_CLOSED', 'REQUEST_TIMEOUT']);

export interface Answer {
  told: Told;
  code?: string;
}

/** What an MCP tools/call result tells its client. */
export function classify(result: { isError?: boolean; _meta?: Record<string, unknown> }): Answer {
  if (!result.isError) return { told: 'succeeded' };
  const error = result._meta?.['tether/error'] as { code?: string; data?: { started?: boolean } } | undefined;
  const code = error?.code ?? 'none';
  if (NOT_RUN.has(code)) return { told: 'not-run', code };
  if ((code === 'CANCELLED' || code === 'INTERNAL_ERROR') && error?.data?.started === false) return { told: 'not-run', code };
  if (UNKNOWN.has(code)) return { told: 'unknown', code };
  return { told: 'failed', code };
}

export interface ChaosAgent {
  readonly kind: 'stdio' | 'http';
  /** Makes the call; `vanishAfterMs` makes the client disappear that long after sending it. */
  call(tool: string, args: Record<string, unknown>, vanishAfterMs?: number): Promise<Answer>;
  close(): Promise<void>;
}

export class StdioAgent implements ChaosAgent {
  readonly kind = 'stdio';
  private session: McpSession | undefined;

  constructor(private readonly workspace: Workspace) {}

  /** The front's pid, for the chaos to kill; undefined while there is none. */
  get frontPid(): number | undefined {
    return this.session?.transport.pid ?? undefined;
  }

  async call(tool: string, args: Record<string, unknown>, vanishAfterMs?: number): Promise<Answer> {
    let session: McpSession;
    try {
      session = this.session ??= await connectMcp(this.workspace, { args: ['--wait-ms', '15000'], clientInfo: { name: 'chaos-stdio', version: '1' } });
    } catch {
      this.session = undefined;
      return { told: 'not-run', code: 'no front' }; // nothing was sent
    }
    const vanish = vanishAfterMs === undefined ? undefined : setTimeout(() => void this.drop(), vanishAfterMs);
    try {
      return classify(await session.client.callTool({ name: tool, arguments: args }, { timeout: 60_000, onprogress: () => undefined }));
    } catch {
      // The front died, or this client left: it was told nothing.
      await this.drop();
      return { told: 'unknown', code: 'no answer' };
    } finally {
      clearTimeout(vanish);
    }
  }

  private async drop(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    await session?.close();
  }

  async close(): Promise<void> {
    await this.drop();
  }
}

export class HttpAgent implements ChaosAgent {
  readonly kind = 'http';
  private headers: Record<string, string> | undefined;
  private next = 0;

  constructor(
    private readonly served: () => Served,
    private readonly name: string,
  ) {}

  async call(tool: string, args: Record<string, unknown>, vanishAfterMs?: number): Promise<Answer> {
    try {
      this.headers ??= await openRawSession(this.served(), {}, this.name);
    } catch {
      return { told: 'not-run', code: 'no session' };
    }
    const abort = new AbortController();
    const vanish = vanishAfterMs === undefined ? undefined : setTimeout(() => abort.abort(), vanishAfterMs);
    try {
      const response = await fetch(this.served().url, {
        method: 'POST',
        headers: this.headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: `c${this.next++}`, method: 'tools/call', params: { name: tool, arguments: args } }),
        signal: AbortSignal.any([abort.signal, AbortSignal.timeout(60_000)]),
      });
      const text = await response.text();
      if (response.status === 404) {
        this.headers = undefined; // the server restarted: its sessions are gone, and this request was not taken
        return { told: 'not-run', code: 'SESSION_ENDED' };
      }
      const data = text.startsWith('{') ? text : ([...text.matchAll(/^data: (.+)$/gm)].map((m) => m[1]!).find((line) => line.includes('"result"') || line.includes('"error"')) ?? '');
      const message = JSON.parse(data || '{}') as { result?: { isError?: boolean; _meta?: Record<string, unknown> }; error?: { data?: { code?: string } } };
      if (message.result) return classify(message.result);
      // A request refused as a whole (429, 503 SHUTTING_DOWN, …) was never handed to the editor.
      const code = message.error?.data?.code ?? `HTTP ${response.status}`;
      return { told: response.status >= 400 ? 'not-run' : 'unknown', code };
    } catch {
      this.headers = undefined;
      return { told: 'unknown', code: abort.signal.aborted ? 'vanished' : 'no answer' };
    } finally {
      clearTimeout(vanish);
    }
  }

  async close(): Promise<void> {
    this.headers = undefined;
  }
}
