/**
 * The connections of `tether serve` that have not yet brought a request that passed the token
 * check ("pending"), and what a peer without the token may hold with them: little, briefly.
 *
 * Node's HTTP server alone lets a connection that sends nothing, or half a request line, hold
 * a descriptor for its headers timeout (60 s) plus up to one check interval (30 s); anyone on
 * the machine could open thousands, take the server to its descriptor limit and shut every
 * agent out without ever knowing the token. So, as the host bounds its pending handshakes:
 *
 * - a pending connection lives `timeoutMs` at most, counted from its accept, whatever it sends
 *   meanwhile (trickled bytes do not extend it, and a preflight answered on it does not either);
 * - at most `max` are pending at once; past that the oldest are closed, so a flood of
 *   strangers displaces only itself and never keeps a new agent out. A connection accepted in
 *   this turn of the event loop is not closed before the next turn has read what it sent: an
 *   agent's request arrives with its connection, and the first check it meets is the token.
 *
 * A connection whose request passed the check leaves this set for good: it is an agent's, and
 * its streams and long calls are timed by nothing here. (The server closes a connection after
 * refusing a request before the check, so a refused peer keeps nothing alive either.)
 */
import type { Socket } from 'node:net';

export type ShedReason = 'timeout' | 'cap';

export interface PendingConnectionsOptions {
  /** How long a connection may stay pending, from its accept. */
  timeoutMs: number;
  /** Pending connections held at once; past it the oldest are closed. */
  max: number;
  /** Told of every connection closed for being pending too long or one too many. */
  onShed?(reason: ShedReason): void;
}

interface Pending {
  /** The turn of the event loop it was accepted in (see trim). */
  readonly turn: number;
  readonly timer: ReturnType<typeof setTimeout>;
}

export class PendingConnections {
  /** In accept order: the first entry is the oldest. */
  private readonly pending = new Map<Socket, Pending>();
  private turn = 0;
  private trimScheduled = false;

  constructor(private readonly options: PendingConnectionsOptions) {
    if (!(options.timeoutMs > 0)) throw new RangeError('timeoutMs must be > 0');
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError('max must be an integer >= 1');
  }

  get size(): number {
    return this.pending.size;
  }

  /** A connection was accepted: pending until authenticated(), closed, or shed. */
  admit(socket: Socket): void {
    const timer = setTimeout(() => this.shed(socket, 'timeout'), this.options.timeoutMs);
    timer.unref();
    this.pending.set(socket, { turn: this.turn, timer });
    socket.once('close', () => this.forget(socket));
    if (this.pending.size > this.options.max) this.scheduleTrim();
  }

  /** A request on this connection passed the token check: the connection is an agent's. */
  authenticated(socket: Socket): void {
    this.forget(socket);
  }

  private forget(socket: Socket): void {
    const entry = this.pending.get(socket);
    if (entry === undefined) return;
    clearTimeout(entry.timer);
    this.pending.delete(socket);
  }

  private shed(socket: Socket, reason: ShedReason): void {
    this.forget(socket);
    socket.destroy();
    this.options.onShed?.(reason);
  }

  /**
   * Runs in the check phase, after the poll phase that accepted the connections over the cap.
   * It closes the oldest pending connections accepted before that poll phase: those had a
   * whole poll phase for their request to be read, and an agent's was (it passed the token
   * check and left the set). The ones just accepted wait for the next turn, which comes after
   * one more poll phase (an immediate queued from an immediate runs in the next turn). So the
   * set exceeds `max` by at most what one poll phase accepts, and only for one turn.
   */
  private scheduleTrim(): void {
    if (this.trimScheduled) return;
    this.trimScheduled = true;
    setImmediate(() => this.trim());
  }

  private trim(): void {
    this.trimScheduled = false;
    const current = this.turn++;
    for (const [socket, entry] of this.pending) {
      if (this.pending.size <= this.options.max || entry.turn >= current) break;
      this.shed(socket, 'cap');
    }
    if (this.pending.size > this.options.max) this.scheduleTrim();
  }
}
