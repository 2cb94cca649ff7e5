/**
 * A reader that stops early (`tether call … | head`, `… 2>&1 | head`) is not a failure of the
 * command: what is left unwritten goes nowhere, quietly, and the exit code still says how the
 * call ended. A command that only prints (`logs --follow`, `status --watch`) asks
 * stdoutReaderGone() and stops: there is no one left to print for. (process.stdout cannot be
 * destroyed, so its `destroyed` does not say so.) Windows reports a closed pipe as EOF; a
 * terminal that hung up answers writes with EIO.
 *
 * Any other failure to write stdout (a full disk: `> /dev/full`, a failing device) is news a
 * command may have to report: `tether call`'s call has run, and its result is what was lost.
 * A command that says it reports such failures itself (reportsStdoutFailures) learns of them
 * through stdoutWritten(); for the others they end the process, as before.
 */
let stdoutGone = false;
let stdoutFailuresReported = false;

/** Whether a write error only says that the stream's reader has gone. */
function readerGone(error: NodeJS.ErrnoException, stream: NodeJS.WriteStream): boolean {
  // EIO on a terminal: it hung up (the window closed; SIGHUP comes with it).
  return error.code === 'EPIPE' || error.code === 'EOF' || (error.code === 'EIO' && stream.isTTY);
}

export function quietOnBrokenPipes(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (readerGone(error, process.stdout)) stdoutGone = true;
    else if (!stdoutFailuresReported) throw error;
  });
  // stderr carries messages about the command, not its output: one that cannot be written has
  // nowhere else to go, and must not turn a call that ran into a crash (exit 1, "failed").
  process.stderr.on('error', () => undefined);
}

/** The command reports a failure to write stdout itself (through stdoutWritten()), rather than end on it. */
export function reportsStdoutFailures(): void {
  stdoutFailuresReported = true;
}

/** Whether a write to stdout has met a closed pipe. */
export function stdoutReaderGone(): boolean {
  return stdoutGone;
}

/**
 * Resolves once everything written to stdout so far has been handed to the system: with the
 * error that kept it from there, unless that error only says its reader has gone (no failure).
 */
export function stdoutWritten(stream: NodeJS.WriteStream = process.stdout): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    // An empty write is queued behind every earlier one; once the stream has failed, it is
    // called back with that failure.
    const written = (error?: NodeJS.ErrnoException | null): void => resolve(error && !readerGone(error, stream) ? error : undefined);
    try {
      stream.write('', written);
    } catch (error) {
      written(error as NodeJS.ErrnoException);
    }
  });
}
