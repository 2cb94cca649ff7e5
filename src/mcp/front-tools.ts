/**
 * The front's own tools, as data: what MCP clients are shown of them. What they do lives in
 * status-tool.ts and use-host-tool.ts; the mirror (host-catalog.ts) only needs their names,
 * which an editor tool may not take.
 */
import type { Tool } from '@modelcontextprotocol/server';

/** tether_status: whether the editor is reachable, what it is doing and what is in flight. */
export const STATUS_TOOL: Tool = {
  name: 'tether_status',
  title: 'Tether status',
  description: 'Shows whether the editor is connected, what it is doing (ready, compiling, reloading, playing) and the calls in flight. Cheap; call it when a tool seems slow.',
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  annotations: { title: 'Tether status', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/**
 * tether_use_host, offered on HTTP sessions only: binds the session to the editor of another
 * project (the other ways are the X-Tether-Project header and `tether serve --project`).
 */
export const USE_HOST_TOOL: Tool = {
  name: 'tether_use_host',
  title: 'Use another editor',
  description:
    'Binds this session to the editor running for another project folder. Later tool calls go to that editor; tools/list changes accordingly. If that editor does not answer, the session keeps the one it has.',
  inputSchema: {
    type: 'object',
    properties: { project: { type: 'string', minLength: 1, description: 'The project folder of the editor to use (as shown by tether hosts).' } },
    required: ['project'],
    additionalProperties: false,
  },
  annotations: { title: 'Use another editor', readOnlyHint: false, idempotentHint: true, openWorldHint: false },
};

/** The names of the front's own tools: a host tool of the same name is not mirrored. */
export const FRONT_TOOL_NAMES: readonly string[] = [STATUS_TOOL.name, USE_HOST_TOOL.name];
