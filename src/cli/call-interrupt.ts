/**
 * Ctrl-C during `tether call`, and the signals a script's `timeout`, a CI job's cancel or a
 * closed terminal send (SIGTERM, SIGHUP; Ctrl-Break on Windows), said by what has happened so
 * far. Before the call is sent, it never will be: the command ends CANCELLED with
 * `started: false` (exit 1). Once sent, the first signal asks the editor to stop the call and
 * waits (--cancel-wait-ms) for its word, which the command then reports; a second stops
 * waiting: the call may still finish, so its outcome is unknown (exit 3), said with its callId.
 */
import { TetherError } from '../protocol/index.js';
import type { ProgressLine } from './progress-line.js';
import { STOP_SIGNALS } from './shutdown.js';

export interface InterruptedCall {
  tool: string;
  callId: string;
}

export class CallInterrupts {
  private sentToEditor = false;
  private readonly signals = STOP_SIGNALS;

  /** `end` ends the command at once with a failure (a second signal: no more waiting). */
  constructor(
    private readonly abort: AbortController,
    private readonly progress: ProgressLine,
    private readonly call: InterruptedCall,
    private readonly end: (failure: TetherError) => void,
  ) {
    for (const signal of this.signals) process.on(signal, this.handle);
  }

  /** The call has been handed to the editor: from now on it may run. */
  sent(): void {
    this.sentToEditor = true;
  }

  /** Whether a signal has come. */
  get interrupted(): boolean {
    return this.abort.signal.aborted;
  }

  /** Interrupted before the call was handed to the editor: it did not run, and will not. */
  get beforeSending(): boolean {
    return this.interrupted && !this.sentToEditor;
  }

  /** What a call interrupted before it was sent ends with. */
  notSent(): TetherError {
    const reason = this.abort.signal.reason instanceof Error ? this.abort.signal.reason.message.replace(/\.$/, '') : 'Interrupted';
    return new TetherError('CANCELLED', `"${this.call.tool}" was not sent to the editor (${reason.charAt(0).toLowerCase()}${reason.slice(1)}), so it did not run.`, {
      tool: this.call.tool,
      callId: this.call.callId,
      started: false,
    });
  }

  stop(): void {
    for (const signal of this.signals) process.off(signal, this.handle);
  }

  private readonly handle = (signal: NodeJS.Signals): void => {
    this.progress.clear();
    if (!this.abort.signal.aborted) {
      const again = signal === 'SIGINT' ? 'Ctrl-C' : signal;
      process.stderr.write(
        this.sentToEditor
          ? `tether: cancelling: asking the editor to stop the call (${again} again to stop waiting)\n`
          : `tether: stopping: "${this.call.tool}" has not been sent to the editor, and will not be.\n`,
      );
      this.abort.abort(new TetherError('CANCELLED', signal === 'SIGINT' ? 'Interrupted from the terminal.' : `Stopped by ${signal}.`));
      return;
    }
    if (!this.sentToEditor) return this.end(this.notSent());
    this.end(
      new TetherError(
        'OUTCOME_UNKNOWN',
        `Stopped waiting for the editor's answer to the cancel: "${this.call.tool}" may still finish, so its outcome is unknown. Check the editor's state before calling it again.`,
        { callId: this.call.callId, tool: this.call.tool, cancelRequested: true },
      ),
    );
  };
}
