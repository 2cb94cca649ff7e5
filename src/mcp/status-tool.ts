/** tether_status: a built-in tool that says whether the editor is reachable and what is in flight. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { RELOADING, type Front } from './front.js';

export const STATUS_TOOL: Tool = {
  name: 'tether_status',
  title: 'Tether status',
  description: 'Shows whether the editor is connected, what it is doing (ready, compiling, reloading, playing) and the calls in flight. Cheap; call it when a tool seems slow.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { title: 'Tether status', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

export function statusResult(front: Front): CallToolResult {
  const { link } = front;
  const now = Date.now();
  // Away for a reload is no error: the connection it closed, or refused meanwhile, says nothing.
  const reloading = front.isReloading();
  const status = {
    link: link.state,
    host: link.hello ? { ...link.hello.host, state: front.hostState?.state ?? link.hello.state } : null,
    ...(reloading ? { reloading: true } : {}),
    ...(link.state !== 'authenticated' && link.lastFailure && !reloading ? { lastError: { code: link.lastFailure.code, message: link.lastFailure.message } } : {}),
    pendingCalls: [...front.pending.values()].map((call) => ({ ...call, elapsedMs: now - call.startedAt })),
    tools: front.catalog.tools.length,
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
