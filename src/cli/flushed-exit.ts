/**
 * Ending the process without losing what it wrote last. On POSIX a write to a pipe is
 * asynchronous (Node's "A note on process I/O"), and process.exit() drops whatever is still
 * queued: a script or an agent reading `tether call` through a pipe could get the exit code
 * without the message that explains it, and an MCP client that closed `tether mcp`'s stdin
 * the end of an answer it was still reading.
 */

/** Past this, a reader that does not read keeps the process no longer, and what is left is dropped. */
const FLUSH_CAP_MS = 2_000;

/** Exits with `code` once everything written to stdout and stderr has been handed to the system. */
export function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), FLUSH_CAP_MS).unref();
  const streams = [process.stdout, process.stderr];
  let waiting = streams.length;
  const flushed = (): void => {
    if (--waiting === 0) process.exit(code);
  };
  // An empty write is queued behind every earlier one: its callback says they are all out (or
  // failed: a closed pipe calls it with the error, which is no reason to wait).
  for (const stream of streams) stream.write('', flushed);
}
