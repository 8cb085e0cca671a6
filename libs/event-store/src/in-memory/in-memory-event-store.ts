import { randomUUID } from 'node:crypto';
import {
  DuplicateEventError,
  EmptyAppendError,
  WrongExpectedRevisionError,
  describeExpected,
} from '../errors';
import { matchesFilter } from '../filter';
import { comparePositions, encodeSqlPosition } from '../position';
import { pollingSubscription } from '../polling-subscription';
import { satisfiesExpectedRevision } from '../expected-revision';
import { EventSchemas, noUpcasting } from '../upcasting';
import { Wakeup } from '../wakeup';
import { InMemorySnapshotStore } from './in-memory-snapshot-store';
import type {
  AppendOptions,
  AppendResult,
  EventFilter,
  EventStore,
  NewEvent,
  Position,
  ReadAllOptions,
  ReadAllResult,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  SubscribeOptions,
  SubscriptionItem,
} from '../types';

/**
 * For unit tests: same semantics as the SQL adapters, no durability. Every append runs to completion
 * without awaiting, so concurrent callers are serialized exactly like row-locked SQL appends. Data
 * and metadata are kept as JSON text, as the SQL adapters keep jsonb: what a test reads back has
 * been through JSON exactly as in production (a Date comes back a string, undefined disappears),
 * and a caller mutating what it got back cannot rewrite history.
 */
export class InMemoryEventStore implements EventStore {
  readonly name = 'in-memory';
  readonly snapshots = new InMemorySnapshotStore();
  private readonly all: StoredEvent[] = [];
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly eventIds = new Map<string, StoredEvent>();
  private readonly wakeup = new Wakeup();

  constructor(private readonly schemas: EventSchemas = noUpcasting) {}

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new EmptyAppendError(streamId);
    const stream = this.streams.get(streamId) ?? [];
    const current = BigInt(stream.length - 1);
    const replay = this.exactReplay(streamId, events, options);
    if (replay) return replay;
    const expected = options.expectedRevision;
    if (!satisfiesExpectedRevision(expected, current)) {
      throw new WrongExpectedRevisionError(streamId, describeExpected(expected), current);
    }
    this.rejectDuplicateIds(events);

    const recordedAt = Date.now();
    const recorded = events.map((event, index): StoredEvent => {
      const sequence = BigInt(this.all.length + index + 1);
      return {
        streamId,
        revision: current + 1n + BigInt(index),
        position: encodeSqlPosition(sequence, sequence),
        eventId: event.eventId ?? randomUUID(),
        type: event.type,
        schemaVersion: this.schemas.currentVersion(event.type),
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata ?? {}),
        recordedAt,
      };
    });
    this.all.push(...recorded);
    stream.push(...recorded);
    this.streams.set(streamId, stream);
    for (const event of recorded) this.eventIds.set(event.eventId, event);
    this.wakeup.notify();
    const last = recorded[recorded.length - 1]!;
    return {
      nextExpectedRevision: last.revision,
      lastPosition: last.position,
      createdStream: current === -1n,
    };
  }

  /** Ids must be unique across the store and within the batch (the SQL unique key enforces both). */
  private rejectDuplicateIds(events: readonly NewEvent[]): void {
    const seen = new Set<string>();
    const duplicates: string[] = [];
    for (const { eventId } of events) {
      if (!eventId) continue;
      if (seen.has(eventId) || this.eventIds.has(eventId)) duplicates.push(eventId);
      seen.add(eventId);
    }
    if (duplicates.length > 0) throw new DuplicateEventError(duplicates);
  }

  /** Appending the very same batch again at the same revision succeeds without writing (ESDB behaviour). */
  private exactReplay(
    streamId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): AppendResult | null {
    if (!events.every((e) => e.eventId)) return null;
    const stored = events.map((e) => this.eventIds.get(e.eventId!));
    if (stored.some((e) => !e || e.streamId !== streamId)) return null;
    const first = stored[0]!.revision;
    if (!stored.every((e, i) => e!.revision === first + BigInt(i))) return null;
    const expected = options.expectedRevision;
    if (typeof expected === 'bigint' && expected !== first - 1n) return null;
    if (expected === 'no_stream' && first !== 0n) return null;
    const last = stored[stored.length - 1]!;
    return { nextExpectedRevision: last.revision, lastPosition: last.position, createdStream: false };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const stream = this.streams.get(streamId) ?? [];
    const from = Number(options.fromRevision ?? 0n);
    const selected = stream.slice(
      Math.max(from, 0),
      options.maxCount === undefined ? undefined : from + options.maxCount,
    );
    return {
      exists: stream.length > 0,
      revision: BigInt(stream.length - 1),
      events: selected.map((e) => this.toReader(e)),
    };
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const from = this.indexAfter(options.after);
    const events: RecordedEvent[] = [];
    let index = from;
    for (; index < this.all.length && events.length < options.limit; index++) {
      const event = this.all[index]!;
      if (matchesFilter(event, options.filter)) events.push(this.toReader(event));
    }
    const endOfFeed = index >= this.all.length;
    // The last event looked at, matching or not: a filtered reader checkpoints past what it skipped.
    const lastScanned = index > from ? this.all[index - 1]!.position : options.after;
    return { events, lastPosition: lastScanned, endOfFeed };
  }

  /** Index of the first event after the position (positions are sorted, so a binary search). */
  private indexAfter(after: Position | 'start'): number {
    if (after === 'start') return 0;
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (comparePositions(this.all[middle]!.position, after) > 0) high = middle;
      else low = middle + 1;
    }
    return low;
  }

  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem> {
    return pollingSubscription((o) => this.readAll(o), this.wakeup, options);
  }

  async headPosition(): Promise<Position | null> {
    return this.all.length ? this.all[this.all.length - 1]!.position : null;
  }

  async countEvents(filter?: EventFilter): Promise<number> {
    if (!filter) return this.all.length;
    return this.all.reduce((count, event) => (matchesFilter(event, filter) ? count + 1 : count), 0);
  }

  async close(): Promise<void> {}

  private toReader(event: StoredEvent): RecordedEvent {
    return this.schemas.upcast({
      ...event,
      data: JSON.parse(event.data),
      metadata: JSON.parse(event.metadata),
      recordedAt: new Date(event.recordedAt),
    });
  }
}

type StoredEvent = Omit<RecordedEvent, 'data' | 'metadata' | 'recordedAt'> & {
  data: string;
  metadata: string;
  recordedAt: number;
};
