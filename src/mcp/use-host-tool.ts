/**
 * tether_use_host: on an HTTP session, binds the session to the editor of another project
 * (the other ways are the X-Tether-Project header and `tether serve --project`).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { errorResult } from './tool-results.js';
import type { Front } from './front.js';

export const USE_HOST_TOOL: Tool = {
  name: 'tether_use_host',
  title: 'Use another editor',
  description: 'Binds this session to the editor running for another project folder. Later tool calls go to that editor; tools/list changes accordingly.',
  inputSchema: {
    type: 'object',
    properties: { project: { type: 'string', description: 'The project folder of the editor to use (as shown by tether hosts).' } },
    required: ['project'],
    additionalProperties: false,
  },
  annotations: { title: 'Use another editor', readOnlyHint: false, idempotentHint: true, openWorldHint: false },
};

export async function useHostResult(front: Front, signal: AbortSignal): Promise<CallToolResult> {
  try {
    await front.link.connection(front.waitMs, signal);
    await front.catalog.settled();
    const hello = front.link.hello;
    const text = `This session now uses ${hello?.host.kind ?? 'the editor'} "${hello?.host.name ?? ''}" for ${hello?.host.projectPath ?? front.options.project}.`;
    return { content: [{ type: 'text', text }], structuredContent: { project: hello?.host.projectPath ?? front.options.project ?? null, host: hello?.host ?? null } };
  } catch (error) {
    return errorResult(error);
  }
}
