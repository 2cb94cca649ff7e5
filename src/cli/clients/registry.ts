/** Every MCP client `tether setup` and `tether doctor` know, in the order they are listed. */
import path from 'node:path';
import { homedir } from 'node:os';
import { claudeCode } from './claude-code.js';
import { claudeDesktop } from './claude-desktop.js';
import { codex } from './codex.js';
import { cursor } from './cursor.js';
import { geminiCli } from './gemini-cli.js';
import type { ClientContext, McpClient } from './types.js';
import { vscode } from './vscode.js';
import { windsurf } from './windsurf.js';

export const CLIENTS: readonly McpClient[] = [claudeCode, claudeDesktop, cursor, vscode, windsurf, codex, geminiCli];

/** Other names people type for a client. */
const ALIASES: Record<string, string> = { claude: 'claude-code', 'gemini-cli': 'gemini', code: 'vscode', 'vs-code': 'vscode', 'claude-desktop-app': 'claude-desktop' };

export function findClient(name: string): McpClient | undefined {
  const id = name.toLowerCase();
  return CLIENTS.find((c) => c.id === (ALIASES[id] ?? id));
}

/** This machine, as the clients' path logic sees it. */
export function currentContext(env: NodeJS.ProcessEnv = process.env): ClientContext {
  return { platform: process.platform, home: homedir(), env, paths: process.platform === 'win32' ? path.win32 : path.posix };
}
