/**
 * What tether_use_host does (the tool itself is declared in front-tools.ts): on an HTTP
 * session, checks the project folder it names and waits for that project's editor.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { TetherError } from '../protocol/index.js';
import { invalidArguments } from '../schema/tool-arguments.js';
import type { Front } from './front.js';
import { USE_HOST_TOOL } from './front-tools.js';
import { errorResult, frontToolArguments } from './tool-results.js';

/** The project folder the call names, checked: the arguments the schema says, and a folder that exists. */
export function useHostProject(args: Record<string, unknown>): string {
  const project = resolve(frontToolArguments(USE_HOST_TOOL, args).project as string);
  let folder = false;
  try {
    folder = statSync(project).isDirectory();
  } catch {
    // Missing or unreadable: said below.
  }
  if (!folder) {
    throw invalidArguments(USE_HOST_TOOL.name, 'project', `is not a folder on this machine (${project}); pass the project folder of a running editor (tether hosts lists them)`, { project });
  }
  return project;
}

/** Waits for the front's editor and says which it is; an error says which editor the session keeps, when given. */
export async function useHostResult(front: Front, signal: AbortSignal, keeping?: Front): Promise<CallToolResult> {
  try {
    const host = await front.ready(signal);
    const text = `This session now uses ${host?.kind ?? 'the editor'} "${host?.name ?? ''}" for ${host?.projectPath ?? front.project}.`;
    return { content: [{ type: 'text', text }], structuredContent: { project: host?.projectPath ?? front.project ?? null, host: host ?? null } };
  } catch (error) {
    if (!keeping || keeping === front) return errorResult(error);
    const failure = TetherError.from(error);
    const kept = keeping.status().host?.projectPath ?? keeping.project ?? null;
    return errorResult(new TetherError(failure.code, `${failure.message} This session still uses ${kept ?? 'the editor it had'}.`, { ...failure.data, keptProject: kept }));
  }
}
