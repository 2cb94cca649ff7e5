/** What tether_status answers (the tool itself is declared in front-tools.ts). */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { RELOADING } from './editor-presence.js';
import type { Front } from './front.js';

export function statusResult(front: Front): CallToolResult {
  const now = Date.now();
  const { link, host, reloading, lastFailure, calls, tools } = front.status();
  const status = {
    link,
    host,
    ...(reloading ? { reloading: true } : {}),
    // Away for a reload is no error: the connection it closed, or refused meanwhile, says nothing.
    ...(lastFailure && !reloading ? { lastError: lastFailure } : {}),
    pendingCalls: calls.map((call) => ({ ...call, elapsedMs: now - call.startedAt })),
    tools,
  };
  const lines = [
    `Editor link: ${status.link}${status.host ? ` to ${status.host.kind} "${status.host.name}" (${status.host.state}) for ${status.host.projectPath}` : ''}`,
    ...(reloading ? [RELOADING] : []),
    ...(status.lastError ? [`Last error: ${status.lastError.message}`] : []),
    `Calls in flight: ${status.pendingCalls.length}`,
    ...status.pendingCalls.map((c) => `- ${c.tool} (${c.state}, ${Math.round(c.elapsedMs / 1000)} s)${c.message ? `: ${c.message}` : ''}`),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent: status };
}
