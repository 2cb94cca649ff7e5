/**
 * Host results and errors as MCP tool results. Whatever the host reports about a call (it
 * failed, was cancelled, its outcome is unknown) becomes an `isError` result that carries
 * the host's message; JSON-RPC errors are kept for protocol faults.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { TetherError, type ToolDescriptor, type ToolResult } from '../protocol/index.js';
import { argumentValidator, type ArgumentValidator } from '../schema/tool-arguments.js';

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

/** Built on first use: the JSON Schema compiler takes ~80 ms to load, which `tether mcp`'s start need not pay. */
const frontToolValidators = new Map<string, ArgumentValidator>();

/** The arguments of one of the front's own tools, checked as a host checks its tools' (INVALID_ARGUMENTS). */
export function frontToolArguments(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  let validate = frontToolValidators.get(tool.name);
  if (!validate) frontToolValidators.set(tool.name, (validate = argumentValidator(tool.name, tool.inputSchema as Record<string, unknown>)));
  return validate(args);
}
