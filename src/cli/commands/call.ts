/**
 * `tether call TOOL [--args JSON]`: one call from a terminal or a script. Prints the result
 * (readable, or JSON with --json), shows progress (and why it waits, when the editor is away)
 * on a TTY, and exits with a code a script can act on (EXIT_CODES). Ctrl-C asks the editor to
 * stop the call and reports what it did.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
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
import { noticeWaits } from '../wait-notice.js';
import { writeJsonFailure } from '../json-failure.js';

export interface CallCommandOptions {
  args?: string;
  project?: string;
  json?: boolean;
  waitMs?: number;
  /** After Ctrl-C, how long to wait for the editor to say whether it stopped the call. */
  cancelWaitMs?: number;
}

/**
 * What `tether call` exits with. `outcomeUnknown` is apart from `failed` because a script must
 * not simply run such a call again: it may have taken effect (or may still).
 */
export const EXIT_CODES = { ok: 0, failed: 1, usage: 2, outcomeUnknown: 3 } as const;

export async function run(toolName: string, options: CallCommandOptions): Promise<number> {
  let args: Record<string, unknown>;
  try {
    args = parseArgs(options.args);
  } catch (error) {
    throw failed(TetherError.from(error), options.json ?? false);
  }
  const link = new HostLink({ ...(options.project ? { project: options.project } : {}), clientName: 'tether-call' }).start();
  const progress = new ProgressLine(process.stderr);
  const abort = new AbortController();
  // Once: a second Ctrl-C stops waiting for the editor's answer and ends the process.
  const onSigint = (): void => {
    progress.clear();
    process.stderr.write('tether: cancelling: asking the editor to stop the call (Ctrl-C again to stop waiting)\n');
    abort.abort(new TetherError('CANCELLED', 'Interrupted from the terminal.'));
  };
  process.once('SIGINT', onSigint);
  const waitMs = options.waitMs ?? 10_000;
  const stopNotices = noticeWaits(link, waitMs, progress);
  try {
    const { tools } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs, abort.signal);
    const tool = tools.find((t) => t.name === toolName);
    if (!tool) throw unknownTool(toolName, tools.map((t) => t.name));
    argumentValidator(tool.name, tool.inputSchema)(args);
    const outcome = await runHostCall(link, { callId: randomUUID(), tool: tool.name, arguments: args }, {
      waitMs,
      rerunnable: isRerunnable(tool),
      signal: abort.signal,
      confirmCancelMs: options.cancelWaitMs ?? 5_000,
      listener: { progress: (update: CallProgress) => progress.update(update) },
    });
    progress.clear();
    if (abort.signal.aborted) process.stderr.write(`tether: the cancel came too late: "${tool.name}" had already finished.\n`);
    print(outcome.result, options.json ?? false);
    return outcome.result.isError ? EXIT_CODES.failed : EXIT_CODES.ok;
  } catch (error) {
    progress.clear();
    throw failed(TetherError.from(error), options.json ?? false);
  } finally {
    stopNotices();
    process.off('SIGINT', onSigint);
    link.close();
  }
}

/** The error that ends the command; with --json, also the failure as JSON on stdout, where scripts read. */
function failed(failure: TetherError, json: boolean): ExitError {
  if (json) writeJsonFailure(failure);
  // The message speaks of tools/list, which MCP clients have; a terminal has `tether tools`.
  const hint = failure.code === 'UNKNOWN_TOOL' || failure.code === 'INVALID_ARGUMENTS' ? '\n`tether tools` lists the tools and the arguments each takes.' : '';
  return new ExitError(`${failure.message} [${failure.code}]${hint}`, exitCodeFor(failure));
}

function exitCodeFor(failure: TetherError): number {
  if (failure.code === 'INVALID_PARAMS' && failure.data.field === '--args') return EXIT_CODES.usage;
  // Evicted with a callId: the call had reached the editor, which may still finish it.
  const reachedTheEditor = failure.code === 'EVICTED' && failure.data.callId !== undefined;
  return failure.code === 'OUTCOME_UNKNOWN' || reachedTheEditor ? EXIT_CODES.outcomeUnknown : EXIT_CODES.failed;
}

function parseArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new TetherError('INVALID_PARAMS', `--args is not valid JSON: ${(error as Error).message}. Example: --args '{"name":"Cube"}'`, { field: '--args' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TetherError('INVALID_PARAMS', '--args must be a JSON object, e.g. --args \'{"depth":2}\'', { field: '--args' });
  }
  return value as Record<string, unknown>;
}

function print(result: ToolResult, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return;
  }
  let imageDir: string | undefined;
  result.content.forEach((item, index) => {
    if (item.type === 'text') process.stdout.write(`${item.text}\n`);
    else if (item.type === 'image') {
      // A private folder of its own (0700) and a file no one else may read or have planted.
      imageDir ??= mkdtempSync(join(tmpdir(), 'tether-'));
      const path = join(imageDir, `image-${index + 1}.${item.mimeType === 'image/png' ? 'png' : 'bin'}`);
      writeFileSync(path, Buffer.from(item.data, 'base64'), { mode: 0o600, flag: 'wx' });
      process.stdout.write(`[${item.mimeType} image saved to ${path}]\n`);
    } else process.stdout.write(`${JSON.stringify(item)}\n`);
  });
}
