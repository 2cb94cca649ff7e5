/**
 * One MCP client on a sandbox for a test that calls many tools (far quicker than a `tether
 * call` process per call): a tool's structured result when it must succeed, its error text
 * ("message [CODE]") when it must fail with a given code.
 */
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { connectMcp, textOf } from './mcp-client.js';
import type { Workspace } from './processes.js';

export interface ToolSession {
  client: Client;
  /** The structured result; the call must succeed. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** The error's text; the call must fail with `code`. */
  fails(name: string, args: Record<string, unknown>, code: string): Promise<string>;
}

export async function toolSession(workspace: Workspace): Promise<ToolSession> {
  const { client } = await connectMcp(workspace);
  return {
    client,
    ok: async <T>(name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    },
    fails: async (name, args, code) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name} should fail with ${code}`).toBe(true);
      expect(textOf(result)).toContain(`[${code}]`);
      return textOf(result);
    },
  };
}
