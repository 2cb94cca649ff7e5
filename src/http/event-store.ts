/**
 * A bounded in-memory event store for one session's SSE streams, so a client whose stream
 * dropped resumes with Last-Event-ID instead of losing a call's progress or its result.
 * It keeps the newest events only: a client away for longer than that re-initializes.
 */
import type { EventStore } from '@modelcontextprotocol/server';

type StoredMessage = Parameters<EventStore['storeEvent']>[1];

export class SessionEventStore implements EventStore {
  private readonly events: Array<{ id: string; streamId: string; message: StoredMessage }> = [];
  private next = 0;
  /**
   * While true, events are numbered but not kept: a dormant session replays its client's
   * handshake to wake, and those answers are nobody's to resume.
   */
  muted = false;

  /** Enough for a few calls' progress and results; a session holds no more than this. */
  constructor(private readonly capacity = 200) {}

  async storeEvent(streamId: string, message: StoredMessage): Promise<string> {
    const id = `${streamId}_${++this.next}`;
    if (this.muted) return id;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: StoredMessage) => Promise<void> }): Promise<string> {
    const index = this.events.findIndex((e) => e.id === lastEventId);
    if (index < 0) throw new Error(`Event ${lastEventId} is no longer kept; initialize a new session.`);
    const { streamId } = this.events[index]!;
    for (const event of this.events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
