import type { SnapshotStore } from './snapshots';

/**
 * The event-store port. Vocabulary follows EventStoreDB so the ESDB adapter passes it straight
 * through: revisions are 0-based, a bigint expected revision is the revision of the stream's last
 * event, and a missing stream has revision -1.
 */

/** Opaque global position; lexical order of the string is the global order (see position.ts). */
export type Position = string;

export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** A domain event as the domain produces it: a stable type name and plain data. */
export interface DomainEvent<Type extends string = string, Data extends object = object> {
  type: Type;
  data: Data;
}

export interface EventMetadata {
  correlationId?: string;
  causationId?: string;
  [key: string]: unknown;
}

export interface NewEvent<E extends DomainEvent = DomainEvent> {
  eventId?: string;
  type: E['type'];
  data: E['data'];
  metadata?: EventMetadata;
}

export interface RecordedEvent<E extends DomainEvent = DomainEvent> {
  streamId: string;
  revision: bigint;
  position: Position;
  eventId: string;
  type: E['type'];
  schemaVersion: number;
  data: E['data'];
  metadata: EventMetadata;
  recordedAt: Date;
}

export interface AppendOptions {
  expectedRevision: ExpectedRevision;
}

export interface AppendResult {
  nextExpectedRevision: bigint;
  lastPosition: Position;
  createdStream: boolean;
}

export interface ReadStreamOptions {
  fromRevision?: bigint;
  maxCount?: number;
}

export interface ReadStreamResult {
  exists: boolean;
  /** Revision of the last event, -1n when the stream does not exist. */
  revision: bigint;
  events: RecordedEvent[];
}

/**
 * Which events a reader wants; every field given must match. Event types and stream categories
 * (stream-category.ts) are served from an index, so a filtered catch-up costs time in proportion to
 * the events it returns; stream prefixes are checked on each event the other fields let through.
 */
export interface EventFilter {
  eventTypes?: readonly string[];
  streamCategories?: readonly string[];
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive. */
  after: Position | 'start';
  limit: number;
  filter?: EventFilter;
  /**
   * The reader was at the settled head at `after` a moment ago, so only the latest appends lie
   * beyond it. A store may then read them in one pass checking each event's type, where a catch-up
   * read takes a branch per type: with dozens of types, planning those branches costs more than
   * the few rows they find. Only a hint: the page is the same either way.
   */
  nearHead?: boolean;
}

export interface ReadAllResult {
  events: RecordedEvent[];
  /**
   * The position the reader may checkpoint at. When the feed is exhausted this is the settled head,
   * even if the filter skipped every event after `after`, so filtered readers still move forward.
   */
  lastPosition: Position | 'start';
  endOfFeed: boolean;
}

export type SubscriptionItem =
  { kind: 'event'; event: RecordedEvent } | { kind: 'caughtUp'; position: Position | 'start' };

export interface SubscribeOptions {
  after: Position | 'start';
  filter?: EventFilter;
  signal: AbortSignal;
  batchSize?: number;
  /**
   * Someone waits for this subscriber to reach a position: read now, even past appends its filter
   * does not take, which a polling subscriber otherwise reads past only after a delay. Push
   * subscriptions (EventStoreDB) hear every position at once and ignore it.
   */
  readNow?: { listen(listener: () => void): () => void };
}

export interface EventStore {
  readonly name: string;
  /**
   * Where CommandService keeps state snapshots of long streams, when the adapter has such a place
   * (the SQL adapters: a table next to the events). Without it every command folds its stream.
   */
  readonly snapshots?: SnapshotStore;
  appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  /** Settled events only: nothing with a smaller position can appear later. */
  readAll(options: ReadAllOptions): Promise<ReadAllResult>;
  /** Catch-up then live, pull-based so `for await` gives back-pressure and order. */
  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem>;
  /** Position of the newest settled event, null when the store holds none. */
  headPosition(): Promise<Position | null>;
  /**
   * How many settled events match the filter, for progress bars (rebuilds). Null when the adapter
   * cannot count without reading everything (EventStoreDB).
   */
  countEvents(filter?: EventFilter): Promise<number | null>;
  close(): Promise<void>;
}
