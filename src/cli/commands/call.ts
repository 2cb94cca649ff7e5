/**
 * `tether call TOOL [key=value…] [--args JSON]`: one call from a terminal or a script. Prints
 * the result (readable, or JSON with --json; an image is written to a file, --out or one named
 * after the tool in the current folder), shows progress (and why it waits, when the editor is
 * away or the call is queued) on a TTY, and exits with a code a script can act on
 * (EXIT_CODES). Ctrl-C (or SIGTERM, SIGHUP) asks the editor to stop the call and reports what it did.
 */
import { randomUUID } from 'node:crypto';
import { METHODS, TetherError, type ToolDescriptor } from '../../protocol/index.js';
import { runHostCall } from '../../link/host-call.js';
import { HostLink } from '../../link/host-link.js';
import { reloadWaitFor } from '../../link/reload-wait.js';
import { unknownTool } from '../../schema/suggest.js';
import { argumentValidator } from '../../schema/tool-arguments.js';
import { isRerunnable } from '../../mcp/tool-results.js';
import { reportsStdoutFailures } from '../broken-pipe.js';
import { parseJsonArgs, splitPairs, withPairs } from '../call-arguments.js';
import { CallInterrupts } from '../call-interrupt.js';
import { resultNotWritten, writeResult, type CompletedCall } from '../call-output.js';
import { ExitError } from '../exit-error.js';
import { EXIT_CODES } from '../exit-codes.js';
import { exitWhenFlushed } from '../flushed-exit.js';
import { checkOut } from '../image-files.js';
import { DEFAULT_WAIT_MS } from '../wait-defaults.js';
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
  /** How long, in all, to wait for an editor away for a domain reload while its process runs. */
  reloadWaitMs?: number;
  /** After Ctrl-C, how long to wait for the editor to say whether it stopped the call. */
  cancelWaitMs?: number;
}

/**
 * What `tether call` exits with (src/cli/exit-codes.ts). `outcomeUnknown` is apart from `failed`
 * because a script must not simply run such a call again: it may have taken effect (or may still).
 */
export { EXIT_CODES };

export async function run(toolName: string, options: CallCommandOptions): Promise<number> {
  const json = options.json ?? false;
  // A failure to write stdout is reported by this command, typed (a call's result lost is
  // RESULT_NOT_WRITTEN, exit 4), or leaves the exit code as it is: never a crash (exit 1).
  reportsStdoutFailures();
  let args: Record<string, unknown>;
  let pairs: Array<[string, string]>;
  try {
    args = parseJsonArgs(options.args);
    pairs = splitPairs(options.pairs ?? []);
    // Before anything is sent: a call that ran must not lose its image to a path that could never be written.
    if (options.out !== undefined) checkOut(options.out);
  } catch (error) {
    throw failed(TetherError.from(error), json);
  }
  const completed = await callEditor(toolName, args, pairs, options);
  // The call has completed: from here on, nothing may say it failed (exit 1) when only its result was lost.
  const written = await writeResult(completed.result, { toolName: completed.tool, json, ...(options.out !== undefined ? { out: options.out } : {}) });
  if (written.unwritten.length > 0) throw failed(resultNotWritten(completed, written), json, completed.callId);
  return completed.result.isError ? EXIT_CODES.failed : EXIT_CODES.ok;
}

/** Runs the call in the editor (once at most), with progress, wait notices and Ctrl-C handled; a failure is thrown as the command's end. */
async function callEditor(toolName: string, given: Record<string, unknown>, pairs: Array<[string, string]>, options: CallCommandOptions): Promise<CompletedCall> {
  const json = options.json ?? false;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const reloadWaitMs = reloadWaitFor(waitMs, options.reloadWaitMs);
  const link = new HostLink({
    ...(options.project ? { project: options.project } : {}),
    clientName: 'tether-call',
    // A terminal answers no question from the editor: declared, the host would ask it and fail the call.
    capabilities: {},
    reloadWaitMs,
  }).start();
  const callId = randomUUID();
  const progress = new ProgressLine(process.stderr);
  const abort = new AbortController();
  const interrupts = new CallInterrupts(abort, progress, { tool: toolName, callId }, (failure) => {
    const exit = failed(failure, json, callId);
    process.stderr.write(`tether: ${exit.message}\n`);
    exitWhenFlushed(exit.exitCode);
  });
  const stopNotices = noticeWaits(link, { waitMs, reloadWaitMs }, progress);
  try {
    const { tools } = await link.request<{ tools: ToolDescriptor[] }>(METHODS.toolsList, undefined, waitMs, abort.signal);
    const tool = tools.find((t) => t.name === toolName);
    if (!tool)
      throw unknownTool(
        toolName,
        tools.map((t) => t.name),
      );
    const args = withPairs(given, pairs, tool.inputSchema);
    argumentValidator(tool.name, tool.inputSchema)(args);
    const outcome = await runHostCall(
      link,
      { callId, tool: tool.name, arguments: args, agent: { name: 'tether-call' } },
      {
        waitMs,
        rerunnable: isRerunnable(tool),
        signal: abort.signal,
        confirmCancelMs: options.cancelWaitMs ?? 5_000,
        listener: { progress: progressWithQueueReason(link, callId, progress) },
        onSent: () => interrupts.sent(),
      },
    );
    progress.clear();
    if (abort.signal.aborted) process.stderr.write(`tether: the cancel came too late: "${tool.name}" had already finished.\n`);
    return { tool: tool.name, callId, rerunnable: isRerunnable(tool), result: outcome.result };
  } catch (error) {
    progress.clear();
    throw failed(interrupts.beforeSending ? interrupts.notSent() : TetherError.from(error), json, callId);
  } finally {
    stopNotices();
    interrupts.stop();
    link.close();
  }
}

/**
 * The error that ends the command; with --json, also the failure as JSON on stdout, where
 * scripts read. An outcome that is unknown names the call, so that it can be looked up.
 */
function failed(failure: TetherError, json: boolean, callId?: string): ExitError {
  const exitCode = exitCodeFor(failure);
  const said = exitCode === EXIT_CODES.outcomeUnknown && callId !== undefined ? namingTheCall(failure, callId) : failure;
  if (json) writeJsonFailure(said);
  // The message speaks of tools/list, which MCP clients have; a terminal has `tether tools`.
  const tool = typeof said.data.tool === 'string' ? said.data.tool : undefined;
  const hint =
    said.code === 'UNKNOWN_TOOL'
      ? '\n`tether tools` lists the tools and the arguments each takes.'
      : said.code === 'INVALID_ARGUMENTS'
        ? `\n\`tether tools${tool ? ` ${tool}` : ''}\` shows the arguments it takes.`
        : '';
  return new ExitError(`${said.message} [${said.code}]${hint}`, exitCode);
}

/** The failure with its callId in its data and in its message: `tether status` lists calls by it. */
function namingTheCall(failure: TetherError, callId: string): TetherError {
  const id = typeof failure.data.callId === 'string' ? failure.data.callId : callId;
  if (failure.message.includes(`call ${id} with \`tether status\``)) return failure;
  return new TetherError(failure.code, `${failure.message} Check call ${id} with \`tether status\`.`, { ...failure.data, callId: id });
}

function exitCodeFor(failure: TetherError): number {
  // A usage error about the command line itself (--args, --out): nothing was sent.
  if (failure.code === 'INVALID_PARAMS' && typeof failure.data.field === 'string' && failure.data.field.startsWith('--')) return EXIT_CODES.usage;
  if (failure.code === 'RESULT_NOT_WRITTEN') return EXIT_CODES.resultNotWritten;
  // Evicted with a callId: the call had reached the editor, which may still finish it.
  const reachedTheEditor = failure.code === 'EVICTED' && failure.data.callId !== undefined;
  return failure.code === 'OUTCOME_UNKNOWN' || reachedTheEditor ? EXIT_CODES.outcomeUnknown : EXIT_CODES.failed;
}
