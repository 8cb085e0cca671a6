import { randomUUID } from 'node:crypto';
import { DuplicateEventError, EmptyAppendError, WrongExpectedRevisionError, describeExpected } from '../errors';
import { comparePositions, encodeSqlPosition } from '../position';
import { pollingSubscription } from '../polling-subscription';
import { EventSchemas, noUpcasting } from '../upcasting';
import { Wakeup } from '../wakeup';
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
import { matchesFilter } from '../filter';

/** For unit tests: same semantics as the SQL adapters, no durability. */
export class InMemoryEventStore implements EventStore {
  readonly name = 'in-memory';
  private readonly all: RecordedEvent[] = [];
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly eventIds = new Map<string, RecordedEvent>();
  private readonly wakeup = new Wakeup();

  constructor(private readonly schemas: EventSchemas = noUpcasting) {}

  async appendToStream(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new EmptyAppendError(streamId);
    const stream = this.streams.get(streamId) ?? [];
    const current = BigInt(stream.length - 1);
    const replay = this.exactReplay(streamId, events, options);
    if (replay) return replay;
    const expected = options.expectedRevision;
    const ok =
      expected === 'any' ||
      (expected === 'no_stream' && stream.length === 0) ||
      (expected === 'stream_exists' && stream.length > 0) ||
      (typeof expected === 'bigint' && expected === current);
    if (!ok) throw new WrongExpectedRevisionError(streamId, describeExpected(expected), current);
    const duplicates = events.filter((e) => e.eventId && this.eventIds.has(e.eventId)).map((e) => e.eventId!);
    if (duplicates.length > 0) throw new DuplicateEventError(duplicates);

    const recordedAt = new Date();
    const recorded = events.map((event, index): RecordedEvent => {
      const sequence = this.all.length + index + 1;
      return {
        streamId,
        revision: current + 1n + BigInt(index),
        position: encodeSqlPosition(BigInt(sequence), BigInt(sequence)),
        eventId: event.eventId ?? randomUUID(),
        type: event.type,
        schemaVersion: this.schemas.currentVersion(event.type),
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata ?? {}),
        recordedAt,
      };
    });
    this.all.push(...recorded);
    stream.push(...recorded);
    this.streams.set(streamId, stream);
    for (const event of recorded) this.eventIds.set(event.eventId, event);
    this.wakeup.notify();
    const last = recorded[recorded.length - 1]!;
    return { nextExpectedRevision: last.revision, lastPosition: last.position, createdStream: current === -1n };
  }

  /** Appending the very same batch again at the same revision succeeds without writing (ESDB behaviour). */
  private exactReplay(streamId: string, events: readonly NewEvent[], options: AppendOptions): AppendResult | null {
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
    const from = options.fromRevision ?? 0n;
    const selected = stream.filter((e) => e.revision >= from).slice(0, options.maxCount ?? Number.MAX_SAFE_INTEGER);
    return {
      exists: stream.length > 0,
      revision: BigInt(stream.length - 1),
      events: selected.map((e) => this.schemas.upcast(e)),
    };
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const start = options.after === 'start' ? 0 : this.all.findIndex((e) => comparePositions(e.position, options.after) > 0);
    const from = start === -1 ? this.all.length : start;
    const events: RecordedEvent[] = [];
    let index = from;
    for (; index < this.all.length && events.length < options.limit; index++) {
      const event = this.all[index]!;
      if (matchesFilter(event, options.filter)) events.push(this.schemas.upcast(event));
    }
    const endOfFeed = index >= this.all.length;
    const lastScanned = index > from ? this.all[index - 1]!.position : options.after;
    return { events, lastPosition: endOfFeed ? lastScanned : lastOf(events, options.after), endOfFeed };
  }

  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem> {
    return pollingSubscription((o) => this.readAll(o), this.wakeup, options);
  }

  async headPosition(): Promise<Position | null> {
    return this.all.length ? this.all[this.all.length - 1]!.position : null;
  }

  async close(): Promise<void> {}
}

const lastOf = (events: RecordedEvent[], fallback: Position | 'start'): Position | 'start' =>
  events.length ? events[events.length - 1]!.position : fallback;

export type { EventFilter };
