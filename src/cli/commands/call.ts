/**
 * `tether call TOOL [key=value…] [--args JSON]`: one call from a terminal or a script. Prints
 * the result (readable, or JSON with --json; an image is written to a file, --out or one named
 * after the tool in the current folder), shows progress (and why it waits, when the editor is
 * away or the call is queued) on a TTY, and exits with a code a script can act on
 * (EXIT_CODES). Ctrl-C (or SIGTERM, SIGHUP) asks the editor to stop the call and reports what it did.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { METHODS, TetherError, type ToolDescriptor, type ToolResult } from '../../protocol/index.js';
import { runHostCall } from '../../link/host-call.js';
import { HostLink } from '../../link/host-link.js';
import { unknownTool } from '../../schema/suggest.js';
import { argumentValidator } from '../../schema/tool-arguments.js';
import { isRerunnable } from '../../mcp/tool-results.js';
import { parseJsonArgs, splitPairs, withPairs } from '../call-arguments.js';
import { ExitError } from '../exit-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { exitWhenFlushed } from '../flushed-exit.js';
import { ProgressLine } from '../progress-line.js';
import { progressWithQueueReason } from '../queue-reason.js';
import { noticeWaits } from '../wait-notice.js';
import { writeJsonFailure } from '../json-failure.js';

export interface CallCommandOptions {
  args?: string;
  /** `key=value` words, typed by the tool's input schema. */
  pairs?: string[];
  /** Where an image result goes (numbered when there are several). */
  out?: string;
  project?: string;
  json?: boolean;
  waitMs?: number;
  /** After Ctrl-C, how long to wait for the editor to say whether it stopped the call. */
  cancelWaitMs?: number;
}

/**
 * What `tether call` exits with (src/cli/exit-codes.ts). `outcomeUnknown` is apart from `failed`
 * because a script must not simply run such a call again: it may have taken effect (or may still).
 */
export { EXIT_CODES };

export async function run(toolName: string, options: CallCommandOptions): Promise<number> {
  let args: Record<string, unknown>;
  let pairs: Array<[string, string]>;
  try {
    args = parseJsonArgs(options.args);
    pairs = splitPairs(options.pairs ?? []);
  } catch (error) {
    throw failed(TetherError.from(error), options.json ?? false);
  }
  const link = new HostLink({ ...(options.project ? { project: options.project } : {}), clientName: 'tether-call' }).start();
  const progress = new ProgressLine(process.stderr);
  const abort = new AbortController();
  const interrupted = onInterrupt(abort, progress, toolName, options.json ?? false);
  const waitMs = options.waitMs ?? 10_000;
  const stopNotices = noticeWaits(link, waitMs, progress);
  try {
    const { tools } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs, abort.signal);
    const tool = tools.find((t) => t.name === toolName);
    if (!tool)
      throw unknownTool(
        toolName,
        tools.map((t) => t.name),
      );
    args = withPairs(args, pairs, tool.inputSchema);
    argumentValidator(tool.name, tool.inputSchema)(args);
    const callId = randomUUID();
    const outcome = await runHostCall(
      link,
      { callId, tool: tool.name, arguments: args, agent: { name: 'tether-call' } },
      {
        waitMs,
        rerunnable: isRerunnable(tool),
        signal: abort.signal,
        confirmCancelMs: options.cancelWaitMs ?? 5_000,
        listener: { progress: progressWithQueueReason(link, callId, progress) },
      },
    );
    progress.clear();
    if (abort.signal.aborted) process.stderr.write(`tether: the cancel came too late: "${tool.name}" had already finished.\n`);
    print(outcome.result, tool.name, options);
    return outcome.result.isError ? EXIT_CODES.failed : EXIT_CODES.ok;
  } catch (error) {
    progress.clear();
    if (error instanceof ExitError) throw error;
    throw failed(TetherError.from(error), options.json ?? false);
  } finally {
    stopNotices();
    interrupted.stop();
    link.close();
  }
}

/**
 * Ctrl-C, and the signals a script's `timeout`, a CI job's cancel or a closed terminal send
 * (SIGTERM, SIGHUP; Ctrl-Break on Windows): the first asks the editor to stop the call and
 * waits (--cancel-wait-ms) for its word, which the command then reports. A second stops
 * waiting: the call may still finish, so the command says the outcome is unknown, and exits 3.
 */
function onInterrupt(abort: AbortController, progress: ProgressLine, toolName: string, json: boolean): { stop(): void } {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', ...(process.platform === 'win32' ? (['SIGBREAK'] as const) : [])];
  const handle = (signal: NodeJS.Signals): void => {
    progress.clear();
    if (!abort.signal.aborted) {
      const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
      process.stderr.write(`tether: cancelling: asking the editor to stop the call (${again} again to stop waiting)\n`);
      abort.abort(new TetherError('CANCELLED', signal === 'SIGINT' ? 'Interrupted from the terminal.' : `Stopped by ${signal}.`));
      return;
    }
    const unknown = new TetherError(
      'OUTCOME_UNKNOWN',
      `Stopped waiting for the editor's answer to the cancel: "${toolName}" may still finish, so its outcome is unknown. Check the editor's state before calling it again.`,
      { tool: toolName, cancelRequested: true },
    );
    const exit = failed(unknown, json);
    process.stderr.write(`tether: ${exit.message}\n`);
    exitWhenFlushed(exit.exitCode);
  };
  for (const signal of signals) process.on(signal, handle);
  return { stop: () => signals.forEach((signal) => process.off(signal, handle)) };
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

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * The result on stdout. An image is written to a file, never left in a temporary folder: to
 * --out (FILE-2.png, … after the first when there are several), else to the current folder as
 * TOOL-YYYYMMDD-HHMMSS.png, never over an existing file. With --json the result is printed
 * whole (the image as base64) and written only when --out asks.
 */
function print(result: ToolResult, toolName: string, options: CallCommandOptions): void {
  const images = result.content.filter((item) => item.type === 'image');
  if (options.out && images.length === 0) process.stderr.write(`tether: the result has no image; nothing was written to ${options.out}.\n`);
  const saved = new Map<object, string>();
  if (options.out || !options.json) {
    const now = new Date();
    const two = (n: number): string => String(n).padStart(2, '0');
    const stamp = `${now.getFullYear()}${two(now.getMonth() + 1)}${two(now.getDate())}-${two(now.getHours())}${two(now.getMinutes())}${two(now.getSeconds())}`;
    images.forEach((image, index) => {
      const extension = EXTENSIONS[image.mimeType] ?? 'bin';
      const numbered = images.length > 1 ? `-${index + 1}` : '';
      const path = options.out ? outPath(options.out, index, extension) : resolve(`${toolName.replace(/[^\w.-]/g, '_')}-${stamp}${numbered}.${extension}`);
      saved.set(image, writeImage(path, Buffer.from(image.data, 'base64'), options.out !== undefined));
    });
  }
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    for (const path of saved.values()) process.stderr.write(`tether: image saved to ${path}\n`);
    return;
  }
  for (const item of result.content) {
    if (item.type === 'text') process.stdout.write(`${item.text}\n`);
    else if (item.type === 'image') process.stdout.write(`[${item.mimeType} image saved to ${saved.get(item)}]\n`);
    else process.stdout.write(`${JSON.stringify(item)}\n`);
  }
}

/** --out as given for the first image; FILE-2.EXT, FILE-3.EXT… for the next ones. */
function outPath(out: string, index: number, extension: string): string {
  if (index === 0) return resolve(out);
  const given = extname(out);
  return resolve(`${given ? out.slice(0, -given.length) : out}-${index + 1}${given || `.${extension}`}`);
}

/** Writes the file: --out replaces what is there, as `curl -o` does; a name Tether chose never does (NAME-2.png, …). */
function writeImage(path: string, bytes: Buffer, replace: boolean): string {
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? path : `${path.slice(0, -extname(path).length)}-${attempt}${extname(path)}`;
    try {
      writeFileSync(candidate, bytes, { flag: replace ? 'w' : 'wx' });
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && !replace && attempt < 100) continue;
      throw new ExitError(`Could not write the image to ${candidate}: ${(error as Error).message}`, EXIT_CODES.failed);
    }
  }
}
