/**
 * Sandboxes for the sandbox tool tests. One MCP client on a sandbox for a test that calls many
 * tools (far quicker than a `tether call` process per call): a tool's structured result when it
 * must succeed, its error text ("message [CODE]") when it must fail with a given code. And the
 * sandbox itself: shared by the tests of a describe block or a file (sharedSandbox), or one of a
 * test's own (startToolSandbox) where a test needs a pristine editor.
 */
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect } from 'vitest';
import { closeMcpSessions, connectMcp, textOf } from './mcp-client.js';
import { cleanupProcesses, createWorkspace, startSandbox, type SandboxProcess, type Workspace } from './processes.js';

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

export interface ToolSandbox {
  workspace: Workspace;
  sandbox: SandboxProcess;
  /** An MCP session on the sandbox (absent when asked for none). */
  mcp: ToolSession;
}

export interface ToolSandboxOptions {
  /** The workspace to open (default: a fresh copy of the sample project), e.g. one a test prepared. */
  workspace?: () => Workspace;
  /** More `tether sandbox` arguments, e.g. ['--build-seconds', '0.2']. */
  args?: string[];
  /** Open an MCP session too (default true): a `tether mcp` process, so leave it out where no test uses it. */
  mcp?: boolean;
}

/** A sandbox of the test's own on a fresh copy of the sample project; cleanupProcesses() and closeMcpSessions() stop it. */
export async function startToolSandbox(options: ToolSandboxOptions = {}): Promise<ToolSandbox> {
  const workspace = (options.workspace ?? createWorkspace)();
  const { sandbox } = await startSandbox(workspace, options.args ?? []);
  const mcp = options.mcp === false ? noSession : await toolSession(workspace);
  return { workspace, sandbox, mcp };
}

/** What `mcp` is when no session was asked for: any use says so instead of failing obscurely. */
const noSession: ToolSession = new Proxy({} as ToolSession, {
  get: () => {
    throw new Error('This sandbox has no MCP session: start it with { mcp: true }.');
  },
});

/**
 * One sandbox for the tests of the enclosing describe block (or of the file, at its top
 * level), for tests that do not interfere: started in beforeAll, stopped with everything else
 * the tests started in afterAll. What it returns can be kept in constants at once
 * (`const { workspace, mcp } = sharedSandbox()`): each stands for the started one, whose
 * members it reads when a test uses them.
 */
export function sharedSandbox(options: ToolSandboxOptions = {}): ToolSandbox {
  let started: ToolSandbox | undefined;
  beforeAll(async () => {
    started = await startToolSandbox(options);
  });
  afterAll(async () => {
    started = undefined;
    await closeMcpSessions();
    await cleanupProcesses();
  });
  const current = (): ToolSandbox => {
    if (!started) throw new Error('The shared sandbox exists only while its tests run (from beforeAll to afterAll).');
    return started;
  };
  return { workspace: standIn(() => current().workspace), sandbox: standIn(() => current().sandbox), mcp: standIn(() => current().mcp) };
}

/** An object that reads every member from `target()` when used, methods bound to it. */
function standIn<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => {
      const object = target();
      const value: unknown = Reflect.get(object, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}
