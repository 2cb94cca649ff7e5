/**
 * One editor tool through the real `tether call`, as the sandbox tool tests drive them: its
 * JSON result when it succeeds, or the stderr of a failure with the expected code.
 */
import { expect } from 'vitest';
import { TETHER_BIN, runToExit, type Run, type Workspace } from './processes.js';

export function callTool(workspace: Workspace, tool: string, args: Record<string, unknown> = {}): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, 'call', tool, '--project', workspace.project, '--args', JSON.stringify(args)], { env: workspace.env });
}

/** The tool's result; the call must exit 0. */
export async function callOk<T>(workspace: Workspace, tool: string, args: Record<string, unknown> = {}): Promise<T> {
  const run = await callTool(workspace, tool, args);
  expect(run.code, `${tool}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** The failure's stderr; the call must exit 1 naming `code`. */
export async function callFails(workspace: Workspace, tool: string, args: Record<string, unknown>, code: string): Promise<string> {
  const run = await callTool(workspace, tool, args);
  expect(run.code, run.stdout).toBe(1);
  expect(run.stderr, `stdout: ${run.stdout}`).toContain(`[${code}]`);
  return run.stderr;
}
