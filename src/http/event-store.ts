/**
 * A bounded in-memory event store for one session's SSE streams, so a client whose stream
 * dropped resumes with Last-Event-ID instead of losing a call's progress or its result.
 * It keeps the newest events only, and none older than EVENT_RETAIN_MS: a client away for
 * longer than that re-initializes (its calls' outcomes stay in the editor's journal). Except
 * the newest event of each stream still waiting for its answer: a call without progress
 * has one event with an id (the stream's priming event) until it is answered, and a stream
 * that drops in the third minute of a build must still be resumable from it.
 */
import type { EventStore } from '@modelcontextprotocol/server';

type StoredMessage = Parameters<EventStore['storeEvent']>[1];

interface StoredEvent {
  id: string;
  streamId: string;
  message: StoredMessage;
  storedAt: number;
}

/**
 * How long a session keeps the events of its SSE streams for a client to resume with
 * Last-Event-ID. Clients reconnect within seconds (the SDK's: 1 s, then 1.5 s); a longer bound
 * kept, with 500 busy sessions, 180 MB of answers nobody would ask for again (measured by the
 * hostile soak: the live heap grew until every session held its 200 events).
 */
export const EVENT_RETAIN_MS = 120_000;

export class SessionEventStore implements EventStore {
  /** Oldest first: stored in time order, so what expired is always at the front. */
  private readonly events: StoredEvent[] = [];
  /** The newest event's id of each stream not answered yet (a request's; the standalone GET stream is never answered). */
  private readonly newestUnanswered = new Map<string, string>();
  /**
   * Those newest events that retention or capacity took from `events`, by stream: kept while a
   * client may resume from them, that is until a newer one is held instead or the stream's
   * answer leaves `events` in turn.
   */
  private readonly held = new Map<string, StoredEvent>();
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
    return this.events.length + this.held.size;
  }

  async storeEvent(streamId: string, message: StoredMessage): Promise<string> {
    const id = `${streamId}_${++this.next}`;
    if (this.muted) return id;
    this.events.push({ id, streamId, message, storedAt: this.now() });
    if (isResponse(message)) this.newestUnanswered.delete(streamId);
    else {
      // Newest last: a stream that is never answered (its request cancelled: the SDK then sends
      // no answer) goes as the others come, so that neither map outgrows the capacity.
      this.newestUnanswered.delete(streamId);
      this.newestUnanswered.set(streamId, id);
      if (this.newestUnanswered.size > this.capacity) this.forgetStream(this.newestUnanswered.keys().next().value as string);
    }
    this.evict(this.events.length - this.capacity);
    this.prune();
    return id;
  }

  /** Forgets the events older than the retention (also called as the session falls asleep, when no more come). */
  prune(): void {
    const cutoff = this.now() - this.retainMs;
    let expired = 0;
    while (expired < this.events.length && this.events[expired]!.storedAt < cutoff) expired++;
    this.evict(expired);
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    this.prune();
    return this.find(eventId)?.event.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: StoredMessage) => Promise<void> }): Promise<string> {
    this.prune();
    const found = this.find(lastEventId);
    if (!found) throw new Error(`Event ${lastEventId} is no longer kept; initialize a new session.`);
    const { streamId } = found.event;
    for (const event of this.events.slice(found.index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }

  /** Holds nothing more for a stream, and waits for no answer on it. */
  private forgetStream(streamId: string): void {
    this.newestUnanswered.delete(streamId);
    this.held.delete(streamId);
  }

  /** Takes the oldest `count` events out, holding on to those a stream still waiting for its answer resumes from. */
  private evict(count: number): void {
    if (count <= 0) return;
    for (const event of this.events.splice(0, count)) {
      if (this.newestUnanswered.get(event.streamId) === event.id) this.held.set(event.streamId, event);
      else if (isResponse(event.message)) this.held.delete(event.streamId);
    }
  }

  /** The event, and where the events after it start (a held event is older than all of `events`). */
  private find(eventId: string): { event: StoredEvent; index: number } | undefined {
    const index = this.events.findIndex((e) => e.id === eventId);
    if (index >= 0) return { event: this.events[index]!, index };
    for (const event of this.held.values()) if (event.id === eventId) return { event, index: -1 };
    return undefined;
  }
}

/** A JSON-RPC response: the answer that ends a request's stream. */
function isResponse(message: StoredMessage): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}
