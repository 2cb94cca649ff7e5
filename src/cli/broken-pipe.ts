/**
 * A reader that stops early (`tether call … | head`, `… 2>&1 | head`) is not a failure of the
 * command: what is left unwritten goes nowhere, quietly, and the exit code still says how the
 * call ended. A command that only prints (`logs --follow`, `status --watch`) asks
 * stdoutReaderGone() and stops: there is no one left to print for. (process.stdout cannot be
 * destroyed, so its `destroyed` does not say so.) Windows reports a closed pipe as EOF; a
 * terminal that hung up answers writes with EIO.
 */
let stdoutGone = false;

export function quietOnBrokenPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      // EIO on a terminal: it hung up (the window closed; SIGHUP comes with it).
      const gone = error.code === 'EPIPE' || error.code === 'EOF' || (error.code === 'EIO' && stream.isTTY);
      if (!gone) throw error;
      if (stream === process.stdout) stdoutGone = true;
    });
  }
}

/** Whether a write to stdout has met a closed pipe. */
export function stdoutReaderGone(): boolean {
  return stdoutGone;
}
