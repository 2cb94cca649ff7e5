/**
 * A bounded in-memory event store for one session's SSE streams, so a client whose stream
 * dropped resumes with Last-Event-ID instead of losing a call's progress or its result.
 * It keeps the newest events only, and none older than EVENT_RETAIN_MS: a client away for
 * longer than that re-initializes (its calls' outcomes stay in the editor's journal).
 */
import type { EventStore } from '@modelcontextprotocol/server';

type StoredMessage = Parameters<EventStore['storeEvent']>[1];

/**
 * How long a session keeps the events of its SSE streams for a client to resume with
 * Last-Event-ID. Clients reconnect within seconds (the SDK's: 1 s, then 1.5 s); a longer bound
 * kept, with 500 busy sessions, 180 MB of answers nobody would ask for again (measured by the
 * hostile soak: the live heap grew until every session held its 200 events).
 */
export const EVENT_RETAIN_MS = 120_000;

export class SessionEventStore implements EventStore {
  /** Oldest first: stored in time order, so what expired is always at the front. */
  private readonly events: Array<{ id: string; streamId: string; message: StoredMessage; storedAt: number }> = [];
  private next = 0;
  /**
   * While true, events are numbered but not kept: a dormant session replays its client's
   * handshake to wake, and those answers are nobody's to resume.
   */
  muted = false;

  constructor(
    /** Enough for a few calls' progress and results; a session holds no more than this. */
    private readonly capacity = 200,
    private readonly retainMs = EVENT_RETAIN_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many events are kept. */
  get size(): number {
    return this.events.length;
  }

  async storeEvent(streamId: string, message: StoredMessage): Promise<string> {
    const id = `${streamId}_${++this.next}`;
    if (this.muted) return id;
    this.events.push({ id, streamId, message, storedAt: this.now() });
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    this.prune();
    return id;
  }

  /** Forgets the events older than the retention (also called as the session falls asleep, when no more come). */
  prune(): void {
    const cutoff = this.now() - this.retainMs;
    let expired = 0;
    while (expired < this.events.length && this.events[expired]!.storedAt < cutoff) expired++;
    if (expired > 0) this.events.splice(0, expired);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    this.prune();
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: StoredMessage) => Promise<void> }): Promise<string> {
    this.prune();
    const index = this.events.findIndex((e) => e.id === lastEventId);
    if (index < 0) throw new Error(`Event ${lastEventId} is no longer kept; initialize a new session.`);
    const { streamId } = this.events[index]!;
    for (const event of this.events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
