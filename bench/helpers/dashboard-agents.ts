/**
 * The agents of the dashboard benchmark: real MCP SDK clients, each with a name of its own,
 * some over tether serve's Streamable HTTP and some through a `tether mcp` stdio front of
 * their own, all on one editor; and the background load they make, a cheap read-only call
 * each after a pause, until told to stop.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { tetherMcpArgs } from '../lib/mcp.js';
import { sleep, trackPid, untrackPid, type Workspace } from '../lib/procs.js';

export interface Agent {
  name: string;
  via: 'http' | 'stdio';
  client: Client;
  close(): Promise<void>;
}

export async function httpAgent(name: string, url: string, token: string): Promise<Agent> {
  const client = new Client({ name, version: '1.0.0' });
  client.onerror = () => undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  return { name, via: 'http', client, close: () => client.close().catch(() => undefined) };
}

export async function stdioAgent(name: string, workspace: Workspace): Promise<Agent> {
  const transport = new StdioClientTransport({ command: process.execPath, args: tetherMcpArgs(workspace), env: workspace.env, stderr: 'ignore' });
  const client = new Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  client.onerror = () => undefined;
  await client.connect(transport);
  const pid = transport.pid ?? 0;
  trackPid(pid);
  return {
    name,
    via: 'stdio',
    client,
    close: async () => {
      await client.close().catch(() => undefined);
      untrackPid(pid);
    },
  };
}

/** `count` agents, `stdio` of them through `tether mcp`, named agent-01 … , a few opened at a time. */
export async function attachAgents(count: number, stdio: number, workspace: Workspace, url: string, token: string): Promise<Agent[]> {
  const agents: Agent[] = [];
  for (let first = 0; first < count; first += 5) {
    const batch = Array.from({ length: Math.min(5, count - first) }, (_, i) => {
      const n = first + i;
      const name = `agent-${String(n + 1).padStart(2, '0')}`;
      return n < stdio ? stdioAgent(name, workspace) : httpAgent(name, url, token);
    });
    agents.push(...(await Promise.all(batch)));
  }
  return agents;
}

/** The agents' background calls: each calls, pauses `pauseMs` (jittered), and calls again. */
export class Load {
  done = 0;
  failed = 0;
  private running = true;
  private readonly loops: Array<Promise<void>>;
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];

  constructor(
    agents: readonly Agent[],
    private readonly pauseMs: number,
  ) {
    this.loops = agents.map((agent) => this.loop(agent));
  }

  /** Resolves once `count` calls in all have finished. */
  until(count: number): Promise<void> {
    if (this.done >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async loop(agent: Agent): Promise<void> {
    // Spread the agents' first calls over one pause, as agents that came at different times.
    await sleep(Math.random() * this.pauseMs);
    while (this.running) {
      try {
        const result = (await agent.client.callTool({ name: 'read_console', arguments: { count: 1 } }, { timeout: 60_000 })) as { isError?: boolean };
        if (result.isError) this.failed++;
      } catch {
        this.failed++;
      }
      this.done++;
      for (const waiter of this.waiters.filter((w) => this.done >= w.count)) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      await sleep(this.pauseMs * (0.5 + Math.random()));
    }
  }
}
