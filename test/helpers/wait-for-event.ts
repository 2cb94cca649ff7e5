/**
 * Waiting on events instead of sleeps: a line a stream writes (a process's log on its stderr),
 * and the turn of the event loop that comes once every promise job queued so far has run.
 * (Processes the tests start themselves have ChildWithLines.waitForStderrLine in processes.ts.)
 */
import type { Stream } from 'node:stream';

/**
 * Resolves with the first complete line of `written()` (all the stream has written so far,
 * as the caller collects it) that matches, looking again each time the stream writes. Rejects
 * after `timeoutMs`, or when the stream ends without such a line, with what it did write.
 */
export function waitForStreamLine(stream: Stream, written: () => string, match: (line: string) => boolean, timeoutMs = 10_000): Promise<string> {
  // Only complete lines: a chunk may end in the middle of one.
  const find = (): string | undefined => written().split('\n').slice(0, -1).find(match);
  const seen = find();
  if (seen !== undefined) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const stop = (): void => {
      clearTimeout(timer);
      stream.off('data', look);
      stream.off('close', ended);
    };
    const fail = (why: string): void => {
      stop();
      reject(new Error(`${why} without a matching line; it wrote:\n${written()}`));
    };
    // Listeners run in the order they were added: the caller's collector has taken this chunk in.
    const look = (): void => {
      const line = find();
      if (line === undefined) return;
      stop();
      resolve(line);
    };
    const ended = (): void => fail('the stream closed');
    const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs);
    stream.on('data', look);
    stream.on('close', ended);
  });
}

/**
 * Resolves on the event loop's next turn, after every promise job queued so far (and every job
 * those queue) has run: work that is only promises (no timer, no I/O) is done by then.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
