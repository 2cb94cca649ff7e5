/**
 * The live JS heap of another Node process after a full garbage collection, through its
 * inspector (started with NODE_OPTIONS=--inspect=127.0.0.1:0): RSS alone says little until V8
 * collects, and an idle process may not collect for a long time. Needs a WebSocket client:
 * global on Node 22, behind --experimental-websocket on Node 20 (the npm script passes it);
 * without one the heap is reported as not reachable, and RSS and descriptors still are.
 */

/** The environment that makes a process open its inspector on a free loopback port. */
export const INSPECT_ENV = { NODE_OPTIONS: '--inspect=127.0.0.1:0' };

/** The inspector's URL a process printed on stderr ("Debugger listening on ws://…"). */
export function inspectorUrl(stderrLines: readonly string[]): string | undefined {
  for (const line of stderrLines) {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

export class HeapProbe {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id!);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('the inspector closed'));
      this.pending.clear();
    });
  }

  static available(): boolean {
    return typeof globalThis.WebSocket === 'function';
  }

  /** Connects to the inspector at `url`; undefined where this Node has no WebSocket client or the connection fails. */
  static async attach(url: string | undefined): Promise<HeapProbe | undefined> {
    if (!url || !HeapProbe.available()) return undefined;
    const socket = new WebSocket(url);
    const opened = await new Promise<boolean>((resolve) => {
      socket.addEventListener('open', () => resolve(true), { once: true });
      socket.addEventListener('error', () => resolve(false), { once: true });
    });
    return opened ? new HeapProbe(socket) : undefined;
  }

  private send(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Bytes of live JS heap after two full collections (the second frees what finalizers released). */
  async usedAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    const usage = (await this.send('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize;
  }

  close(): void {
    this.socket.close();
  }
}
