/**
 * tether_use_host: on an HTTP session, binds the session to the editor of another project
 * (the other ways are the X-Tether-Project header and `tether serve --project`).
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { TetherError } from '../protocol/index.js';
import { invalidArguments } from '../schema/tool-arguments.js';
import { errorResult, frontToolArguments } from './tool-results.js';
import type { Front } from './front.js';

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
    await front.link.connection(front.waitMs, signal);
    await front.catalog.settled();
    const hello = front.link.hello;
    const text = `This session now uses ${hello?.host.kind ?? 'the editor'} "${hello?.host.name ?? ''}" for ${hello?.host.projectPath ?? front.options.project}.`;
    return { content: [{ type: 'text', text }], structuredContent: { project: hello?.host.projectPath ?? front.options.project ?? null, host: hello?.host ?? null } };
  } catch (error) {
    if (!keeping || keeping === front) return errorResult(error);
    const failure = TetherError.from(error);
    const kept = keeping.link.hello?.host.projectPath ?? keeping.options.project ?? null;
    return errorResult(new TetherError(failure.code, `${failure.message} This session still uses ${kept ?? 'the editor it had'}.`, { ...failure.data, keptProject: kept }));
  }
}
