/**
 * Host results and errors as MCP tool results. Whatever the host reports about a call (it
 * failed, was cancelled, its outcome is unknown) becomes an `isError` result that carries
 * the host's message; JSON-RPC errors are kept for protocol faults.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { TetherError, type ToolDescriptor, type ToolResult } from '../protocol/index.js';

/** The key under which a Tether error's code and data travel in a result's _meta. */
export const ERROR_META_KEY = 'tether/error';

export function errorResult(error: unknown): CallToolResult {
  const failure = TetherError.from(error);
  return {
    isError: true,
    content: [{ type: 'text', text: `${failure.message} [${failure.code}]` }],
    _meta: { [ERROR_META_KEY]: { code: failure.code, data: failure.data } },
  };
}

export function toMcpResult(result: ToolResult): CallToolResult {
  return result as CallToolResult;
}

/** The MCP form of a host tool descriptor. */
export function toMcpTool(tool: ToolDescriptor): Tool {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
    annotations: {
      ...(tool.title ? { title: tool.title } : {}),
      ...(readOnlyHint === undefined ? {} : { readOnlyHint }),
      ...(destructiveHint === undefined ? {} : { destructiveHint }),
      ...(idempotentHint === undefined ? {} : { idempotentHint }),
      ...(openWorldHint === undefined ? {} : { openWorldHint }),
    },
  };
}

/** A tool may run again after the host lost it only if running it twice is harmless. */
export function isRerunnable(tool: ToolDescriptor): boolean {
  return tool.annotations.readOnlyHint === true || tool.annotations.idempotentHint === true;
}
