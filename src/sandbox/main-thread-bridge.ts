/**
 * The network side's handle on the main thread (a worker). Calls go in as messages; a
 * running call is cancelled through shared memory, which a synchronously blocked thread
 * still sees; progress, logs and questions for the client come back as messages.
 */
import { Worker } from 'node:worker_threads';
import { TetherError, type HostStateName, type ToolDescriptor, type ToolResult } from '../protocol/index.js';
import type { ToolContext } from '../host/tools.js';
import { CANCEL_FLAG, type FromMainThread, type MainThreadSettings, type ReloadCause, type ToMainThread, type WireFailure } from './main-thread-messages.js';

export interface CallOutcome {
  result: ToolResult;
  reload?: ReloadCause;
  state?: HostStateName;
}

interface InFlight {
  context: ToolContext;
  resolve(outcome: CallOutcome): void;
  reject(error: TetherError): void;
}

/** A main-thread call not yet handed to the main thread. */
interface Waiting {
  callId: string;
  tool: string;
  args: Record<string, unknown>;
  /** Its cancellation: one that fired before the call was handed over sets the flag as it is. */
  signal: AbortSignal;
}

export class MainThreadBridge {
  private worker: Worker | undefined;
  private readonly flags = new Int32Array(new SharedArrayBuffer(4));
  private readonly calls = new Map<string, InFlight>();
  private readonly requests = new Map<number, { resolve(v: unknown): void; reject(e: TetherError): void }>();
  private nextRequest = 1;
  private exiting = false;
  /**
   * The main-thread call the main thread has, and those waiting for it. The host hands over one
   * at a time, but it gives up on a tool that ignored its deadline (protocol.md §8.6) and hands
   * over the next while that tool may still hold the main thread: the next one waits here, its
   * cancellation its own, and one cancelled while it waits never begins.
   */
  private mainThreadCall: string | undefined;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly settings: MainThreadSettings,
    private readonly onState: (state: HostStateName, expectedMs?: number) => void = () => undefined,
    /** A resource the main thread changed: the network side tells its subscribers. */
    private readonly onResourceUpdated: (uri: string) => void = () => undefined,
  ) {}

  /** Starts the main thread and waits for its tool list. */
  start(): Promise<{ tools: ToolDescriptor[]; playing: boolean }> {
    const worker = new Worker(new URL('./main-thread.js', import.meta.url), {
      workerData: { settings: this.settings, cancelBuffer: this.flags.buffer },
    });
    this.worker = worker;
    return new Promise((resolve, reject) => {
      worker.on('message', (message: FromMainThread) => {
        if (message.type === 'ready') resolve({ tools: message.tools, playing: message.playing });
        else this.onMessage(message);
      });
      worker.once('error', (error) => {
        reject(error);
        this.crashed(`the main thread crashed: ${error.message}`);
      });
      worker.once('exit', (code) => {
        reject(new Error(`main thread exited with code ${code} before it was ready`));
        if (!this.exiting) this.crashed(`the main thread exited with code ${code}`);
      });
    });
  }

  /**
   * Runs a tool in the worker: a main-thread one (the default) once the main thread is free of
   * the one before, cancelled through the shared flag; one that does not need it at once, its
   * cancellation left to the tool.
   */
  call(callId: string, tool: string, args: Record<string, unknown>, context: ToolContext, mainThread = true): Promise<CallOutcome> {
    const worker = this.worker;
    if (!worker) return Promise.reject(new TetherError('INTERNAL_ERROR', 'The main thread is not running.'));
    return new Promise((resolve, reject) => {
      const job: Waiting = { callId, tool, args, signal: context.signal };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(job);
        if (at >= 0) {
          // It never began: it is not run now.
          this.waiting.splice(at, 1);
          this.calls.get(callId)?.reject(notBegun(tool, callId, 'it was cancelled'));
        } else if (this.mainThreadCall === callId) {
          Atomics.store(this.flags, CANCEL_FLAG, 1);
          Atomics.notify(this.flags, CANCEL_FLAG);
        }
      };
      if (mainThread) context.signal.addEventListener('abort', onAbort, { once: true });
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          context.signal.removeEventListener('abort', onAbort);
          this.calls.delete(callId);
          fn(value);
        };
      this.calls.set(callId, { context, resolve: settle(resolve), reject: settle(reject) });
      if (!mainThread) this.send({ type: 'call', callId, tool, args });
      else if (this.mainThreadCall === undefined) this.begin(job);
      else this.waiting.push(job);
    });
  }

  /** Hands a main-thread call to the main thread, the cancel flag its own from now on. */
  private begin(job: Waiting): void {
    this.mainThreadCall = job.callId;
    // Cancelled already (its abort event gone before the listener was added): it begins cancelled.
    Atomics.store(this.flags, CANCEL_FLAG, job.signal.aborted ? 1 : 0);
    this.send({ type: 'call', callId: job.callId, tool: job.tool, args: job.args });
  }

  /** The main thread is done with `callId`: the next main-thread call, if one waits, begins. */
  private mainThreadDone(callId: string): void {
    if (this.mainThreadCall !== callId) return;
    this.mainThreadCall = undefined;
    const next = this.waiting.shift();
    if (next) this.begin(next);
  }

  request(kind: 'read-resource' | 'complete' | 'get-prompt', payload: Record<string, unknown>): Promise<unknown> {
    const id = this.nextRequest++;
    return new Promise((resolve, reject) => {
      this.requests.set(id, { resolve, reject });
      this.send({ type: 'request', id, kind, payload });
    });
  }

  /** The host of this domain is listening: the main thread may go on with what the domain before left. */
  hostStarted(): void {
    this.send({ type: 'host-started' });
  }

  /** Tears the main thread down (a domain reload or a quit). */
  async terminate(): Promise<void> {
    this.exiting = true;
    await this.worker?.terminate();
    this.worker = undefined;
    this.crashed('the main thread was torn down');
  }

  private send(message: ToMainThread): void {
    this.worker?.postMessage(message);
  }

  private onMessage(message: FromMainThread): void {
    switch (message.type) {
      case 'progress': {
        const { type: _type, callId, ...update } = message;
        try {
          this.calls.get(callId)?.context.progress(update);
        } catch {
          // Nothing a report holds may end the editor: a throw here, in a message handler, would,
          // and failing the call would misreport a tool that goes on running on the main thread.
        }
        break;
      }
      case 'log':
        this.calls.get(message.callId)?.context.log(message.level === 'warning' ? 'warning' : message.level, message.data);
        break;
      case 'done': {
        this.mainThreadDone(message.callId);
        const call = this.calls.get(message.callId);
        if (!call) break;
        if (message.ok) call.resolve({ result: message.result, ...(message.reload ? { reload: message.reload } : {}), ...(message.state ? { state: message.state } : {}) });
        else call.reject(fromFailure(message.error));
        break;
      }
      case 'response': {
        const pending = this.requests.get(message.id);
        this.requests.delete(message.id);
        if (message.ok) pending?.resolve(message.value);
        else pending?.reject(fromFailure(message.error));
        break;
      }
      case 'ask':
        void this.relayAsk(message);
        break;
      case 'state':
        this.onState(message.state, message.expectedMs);
        break;
      case 'resource-updated':
        this.onResourceUpdated(message.uri);
        break;
      case 'ready':
        break;
    }
  }

  private async relayAsk(message: Extract<FromMainThread, { type: 'ask' }>): Promise<void> {
    const call = this.calls.get(message.callId);
    try {
      if (!call) throw new TetherError('NO_CLIENT', `Call "${message.callId}" is no longer running.`);
      const value =
        message.kind === 'elicit' ? await call.context.elicit(String(message.payload.message), message.payload.requestedSchema as Record<string, unknown>) : await call.context.sample(message.payload);
      this.send({ type: 'answer', id: message.id, ok: true, value });
    } catch (error) {
      const e = TetherError.from(error, 'CLIENT_REQUEST_FAILED');
      this.send({ type: 'answer', id: message.id, ok: false, error: { code: e.code, message: e.message, data: e.data } });
    }
  }

  private crashed(why: string): void {
    // A call still waiting for the main thread never began: it did not run, and will not.
    for (const job of this.waiting.splice(0)) this.calls.get(job.callId)?.reject(notBegun(job.tool, job.callId, why));
    this.mainThreadCall = undefined;
    // Whatever the call had done before the teardown stays done: its outcome is unknown.
    const error = new TetherError('OUTCOME_UNKNOWN', `The call did not finish because ${why}; whether it took effect is unknown. Check the editor's state before running it again.`);
    for (const call of this.calls.values()) call.reject(error);
    for (const pending of this.requests.values()) pending.reject(error);
    this.requests.clear();
  }
}

/** A main-thread call that waited behind a tool given up past its deadline, and never began. */
function notBegun(tool: string, callId: string, why: string): TetherError {
  return new TetherError('CANCELLED', `"${tool}" never began: it waited for the main thread, still held by a tool given up past its deadline, and ${why}. It did not run.`, {
    callId,
    started: false,
  });
}

function fromFailure(failure: WireFailure): TetherError {
  return new TetherError(failure.code as TetherError['code'], failure.message, failure.data ?? {});
}
