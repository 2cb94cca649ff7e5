/** Real MCP SDK clients talking to real `tether mcp` processes over stdio. */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { TETHER_BIN, type Workspace } from './processes.js';

export interface McpSession {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
  toolsChanged: number;
  close(): Promise<void>;
}

const sessions = new Set<McpSession>();

export async function connectMcp(
  workspace: Workspace,
  options: { args?: string[]; mode?: 'legacy' | 'auto'; onToolsChanged?: () => void; clientInfo?: { name: string; version: string } } = {},
): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TETHER_BIN, 'mcp', '--project', workspace.project, '--log-level', 'info', ...(options.args ?? [])],
    env: workspace.env as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(options.clientInfo ?? { name: 'tether-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: options.mode ?? 'legacy' } });
  const session: McpSession = {
    client,
    transport,
    stderr: () => stderr,
    toolsChanged: 0,
    close: async () => {
      sessions.delete(session);
      await client.close().catch(() => undefined);
    },
  };
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    session.toolsChanged++;
    options.onToolsChanged?.();
  });
  await client.connect(transport);
  sessions.add(session);
  return session;
}

export async function closeMcpSessions(): Promise<void> {
  await Promise.all([...sessions].map((s) => s.close()));
}

/** The text of a tool result's first text block. */
export function textOf(result: { content?: unknown }): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.find((c) => c.type === 'text')?.text ?? '';
}
