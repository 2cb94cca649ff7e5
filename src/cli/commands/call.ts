/**
 * `tether call TOOL [--args JSON]`: one call from a terminal or a script. Prints the result
 * (readable, or JSON with --json), shows progress on a TTY, exits 0 on success and non-zero
 * with the error otherwise.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { METHODS, TetherError, type CallProgress, type ToolDescriptor, type ToolResult } from '../../protocol/index.js';
import { runHostCall } from '../../link/host-call.js';
import { HostLink } from '../../link/host-link.js';
import { unknownTool } from '../../schema/suggest.js';
import { argumentValidator } from '../../schema/tool-arguments.js';
import { isRerunnable } from '../../mcp/tool-results.js';
import { ExitError } from '../exit-error.js';
import { ProgressLine } from '../progress-line.js';

export interface CallCommandOptions {
  args?: string;
  project?: string;
  json?: boolean;
  waitMs?: number;
}

export async function run(toolName: string, options: CallCommandOptions): Promise<number> {
  const args = parseArgs(options.args);
  const link = new HostLink({ ...(options.project ? { project: options.project } : {}), clientName: 'tether-call' }).start();
  const progress = new ProgressLine(process.stderr);
  const abort = new AbortController();
  const onSigint = (): void => abort.abort(new TetherError('CANCELLED', 'Interrupted from the terminal.'));
  process.once('SIGINT', onSigint);
  try {
    const waitMs = options.waitMs ?? 10_000;
    const { tools } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs, abort.signal);
    const tool = tools.find((t) => t.name === toolName);
    if (!tool) throw unknownTool(toolName, tools.map((t) => t.name));
    argumentValidator(tool.name, tool.inputSchema)(args);
    const outcome = await runHostCall(link, { callId: randomUUID(), tool: tool.name, arguments: args }, {
      waitMs,
      rerunnable: isRerunnable(tool),
      signal: abort.signal,
      listener: { progress: (update: CallProgress) => progress.update(update) },
    });
    progress.clear();
    print(outcome.result, options.json ?? false);
    return outcome.result.isError ? 1 : 0;
  } catch (error) {
    progress.clear();
    const failure = TetherError.from(error);
    if (options.json) process.stdout.write(`${JSON.stringify({ error: failure.toJSON() }, null, 2)}\n`);
    throw new ExitError(`${failure.message} [${failure.code}]`, 1);
  } finally {
    process.off('SIGINT', onSigint);
    link.close();
  }
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ExitError(`--args is not valid JSON: ${(error as Error).message}. Example: --args '{"name":"Cube"}'`, 2);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ExitError('--args must be a JSON object, e.g. --args \'{"depth":2}\'', 2);
  return value as Record<string, unknown>;
}

function print(result: ToolResult, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  for (const item of result.content) {
    if (item.type === 'text') process.stdout.write(`${item.text}\n`);
    else if (item.type === 'image') {
      const extension = item.mimeType === 'image/png' ? 'png' : 'bin';
      const path = join(tmpdir(), `tether-${Date.now()}.${extension}`);
      writeFileSync(path, Buffer.from(item.data, 'base64'));
      process.stdout.write(`[${item.mimeType} image saved to ${path}]\n`);
    } else process.stdout.write(`${JSON.stringify(item)}\n`);
  }
}
