/**
 * The editor's own account of what ran, the judge of every chaos run: the sandbox appends one
 * line per execution to Library/Tether/executions.jsonl (callId and tool) before the tool
 * runs, and journals every call with its arguments in Library/Tether/journal.jsonl before it
 * is queued. An operation is known to the harness by a unique name in its arguments; the
 * journal gives the callIds that carried it, the executions log how often each ran.
 */
import { join } from 'node:path';
import { Project } from '../../../src/sandbox/project.js';

export interface EditorLog {
  /** How many times each operation (by its unique name) ran. */
  executionsOf(operation: string): number;
  /** Executions of the tool in all (with the operations' names or not). */
  executionsOfTool(tool: string): number;
}

/** Reads both logs of a sandbox project; `nameOf` finds an operation's name in a call's arguments. */
export function readEditorLog(project: string, nameOf: (args: Record<string, unknown>) => string | undefined): EditorLog {
  const tether = join(project, 'Library', 'Tether');
  // Project.readLines skips a line cut short by kill -9: that write never completed, so it recorded nothing.
  const lines = <T>(path: string): T[] => new Project(project).readLines<T>(path);
  const runs = new Map<string, number>();
  const byTool = new Map<string, number>();
  for (const entry of lines<{ callId: string; tool: string }>(join(tether, 'executions.jsonl'))) {
    runs.set(entry.callId, (runs.get(entry.callId) ?? 0) + 1);
    byTool.set(entry.tool, (byTool.get(entry.tool) ?? 0) + 1);
  }
  const callIds = new Map<string, Set<string>>();
  for (const entry of lines<{ callId: string; arguments?: Record<string, unknown> }>(join(tether, 'journal.jsonl'))) {
    const name = entry.arguments ? nameOf(entry.arguments) : undefined;
    if (!name) continue;
    const ids = callIds.get(name) ?? new Set<string>();
    ids.add(entry.callId);
    callIds.set(name, ids);
  }
  return {
    executionsOf: (operation) => [...(callIds.get(operation) ?? [])].reduce((sum, id) => sum + (runs.get(id) ?? 0), 0),
    executionsOfTool: (tool) => byTool.get(tool) ?? 0,
  };
}

/** The operation name the chaos suites put in a call: the name of the object it creates. */
export function operationName(args: Record<string, unknown>): string | undefined {
  return typeof args.name === 'string' && args.name.startsWith('op-') ? args.name : undefined;
}
