import type { AllStreamRecordedEvent, EventStoreDBClient, ReadPosition } from '@eventstore/db-client';
import { abortableSleep, backoffMs } from '../abortable-sleep';
import { EmptyAppendError, WrongExpectedRevisionError, describeExpected } from '../errors';
import { matchesFilter } from '../filter';
import type {
  AppendOptions,
  AppendResult,
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
import { EventSchemas, noUpcasting } from '../upcasting';
import { isStreamNotFound, isWrongExpectedVersion } from './esdb-errors';
import { isSystemEvent, toEventData, toRecordedEvent } from './esdb-events';
import { serverFilter } from './esdb-filter';
import { LiveFeed } from './esdb-live-feed';
import { decodeEsdbPosition, encodeEsdbPosition } from './esdb-position';

/** How many $all records one readAll call may look at before it returns what it has (filtered reads). */
const SCAN_BUDGET = 10_000;
const MAX_PAGE = 4096;
const MAX_SUBSCRIPTION_FAILURES = 8;

/**
 * EventStoreDB adapter. The port's vocabulary is ESDB's, so expected revisions pass straight
 * through. What ESDB does differently, and how this adapter copes:
 * - $all holds the server's own events ($-prefixed types and streams): they are never returned,
 *   and headPosition is the newest non-system event, so an exhausted reader's lastPosition equals it.
 * - reading $all from a position includes that position, while the port's `after` excludes it.
 * - event ids are idempotency keys only within a stream's recent writes, not unique store-wide, so
 *   DuplicateEventError is never raised here; countEvents cannot be answered without a full scan.
 * - a subscription is a push stream that can drop; subscribeToAll re-subscribes from the last
 *   position it handed out, with backoff, and only fails after repeated failures.
 */
export class EsdbEventStore implements EventStore {
  readonly name = 'esdb';
  private readonly closing = new AbortController();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly schemas: EventSchemas = noUpcasting,
  ) {}

  /** Loads the gRPC client only here, so processes that never use ESDB do not pay for it. */
  static async open(connectionString: string, schemas: EventSchemas = noUpcasting): Promise<EsdbEventStore> {
    const { EventStoreDBClient } = await import('@eventstore/db-client');
    const store = new EsdbEventStore(EventStoreDBClient.connectionString(connectionString), schemas);
    try {
      await store.headPosition(); // fail at start-up, not on the first command, when the server is unreachable
      return store;
    } catch (error) {
      await store.close();
      throw error;
    }
  }

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new EmptyAppendError(streamId);
    const data = events.map((event) => toEventData(event, this.schemas.currentVersion(event.type)));
    try {
      const result = await this.client.appendToStream(streamId, data, {
        expectedRevision: options.expectedRevision,
      });
      const lastPosition = result.position
        ? encodeEsdbPosition(result.position)
        : await this.positionOf(streamId, result.nextExpectedRevision);
      return {
        nextExpectedRevision: result.nextExpectedRevision,
        lastPosition,
        // ESDB does not say; a stream whose last revision is the batch's own size minus one began with it.
        createdStream: result.nextExpectedRevision === BigInt(events.length - 1),
      };
    } catch (error) {
      if (isWrongExpectedVersion(error)) {
        const actual = typeof error.actualVersion === 'bigint' ? error.actualVersion : -1n;
        throw new WrongExpectedRevisionError(streamId, describeExpected(options.expectedRevision), actual);
      }
      throw error;
    }
  }

  /** Idempotent replays may come back without a position; the stored event has it. */
  private async positionOf(streamId: string, revision: bigint): Promise<Position> {
    const { events } = await this.readStream(streamId, { fromRevision: revision, maxCount: 1 });
    if (!events[0]) throw new Error(`EventStoreDB did not return ${streamId}@${revision} after appending it`);
    return events[0].position;
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    if (options.maxCount === 0) {
      const revision = await this.lastRevision(streamId);
      return { exists: revision >= 0n, revision, events: [] };
    }
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        fromRevision: options.fromRevision ?? 'start',
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      for await (const resolved of read) {
        if (resolved.event) events.push(toRecordedEvent(resolved.event, this.schemas));
      }
    } catch (error) {
      // The client reports a missing stream while iterating, not when the read is started.
      if (isStreamNotFound(error)) return { exists: false, revision: -1n, events: [] };
      throw error;
    }
    // A read to the end of the stream knows the revision from the same read; a partial one asks.
    const readToEnd = options.maxCount === undefined && events.length > 0;
    const revision = readToEnd ? events[events.length - 1]!.revision : await this.lastRevision(streamId);
    return { exists: revision >= 0n, revision, events };
  }

  private async lastRevision(streamId: string): Promise<bigint> {
    try {
      for await (const resolved of this.client.readStream(streamId, {
        direction: 'backwards',
        fromRevision: 'end',
        maxCount: 1,
      })) {
        if (resolved.event) return resolved.event.revision;
      }
      return -1n;
    } catch (error) {
      if (isStreamNotFound(error)) return -1n;
      throw error;
    }
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const events: RecordedEvent[] = [];
    const pageSize = Math.min(Math.max(options.limit + 1, 256), MAX_PAGE);
    let lastOwn: Position | null = null;
    let scanned = 0;
    for await (const { event, position } of this.scanAll('forwards', options.after, pageSize)) {
      scanned += 1;
      if (!isSystemEvent(event)) {
        lastOwn = position;
        if (matchesFilter(event, options.filter)) {
          events.push(toRecordedEvent(event, this.schemas));
          if (events.length === options.limit) return { events, lastPosition: position, endOfFeed: false };
        }
      }
      // Everything up to here has been looked at; a filtered reader may checkpoint past it.
      if (scanned >= SCAN_BUDGET) return { events, lastPosition: position, endOfFeed: false };
    }
    return { events, lastPosition: lastOwn ?? options.after, endOfFeed: true };
  }

  /**
   * Every $all record strictly beyond `from` in the given direction, paged. The server's reads
   * include their start position, so each page restarts at the last record seen and skips it.
   */
  private async *scanAll(
    direction: 'forwards' | 'backwards',
    from: Position | 'start' | 'end',
    pageSize: number,
  ): AsyncGenerator<{ event: AllStreamRecordedEvent; position: Position }> {
    let boundary: Position | null = from === 'start' || from === 'end' ? null : from;
    let fromPosition: ReadPosition = boundary ? decodeEsdbPosition(boundary) : (from as 'start' | 'end');
    const beyond = (position: Position) =>
      boundary === null || (direction === 'forwards' ? position > boundary : position < boundary);
    for (;;) {
      const read = this.client.readAll({ direction, fromPosition, maxCount: pageSize });
      let count = 0;
      let complete = false;
      try {
        for await (const resolved of read) {
          count += 1;
          const event = resolved.event;
          if (!event?.position) continue;
          const position = encodeEsdbPosition(event.position);
          if (!beyond(position)) continue;
          boundary = position;
          fromPosition = event.position;
          yield { event, position };
        }
        complete = true;
      } finally {
        if (!complete) await read.cancel().catch(() => undefined);
      }
      if (count < pageSize) return;
    }
  }

  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem> {
    return this.subscription(options);
  }

  /**
   * Catch-up by paging readAll (so every server version reports caughtUp when the backlog is
   * done), then live on the server's subscription from that point, re-subscribing after a drop.
   * Any failure, in either phase, is retried from the last position handed out, with backoff.
   */
  private async *subscription(options: SubscribeOptions): AsyncGenerator<SubscriptionItem> {
    const signal = AbortSignal.any([options.signal, this.closing.signal]);
    const limit = options.batchSize ?? 500;
    let after: Position | 'start' = options.after;
    let failures = 0;
    const backOff = async (error: unknown) => {
      failures += 1;
      if (failures >= MAX_SUBSCRIPTION_FAILURES && !signal.aborted) throw error;
      await abortableSleep(backoffMs(failures), signal);
    };

    for (let caughtUp = false; !caughtUp;) {
      if (signal.aborted) return;
      let page: ReadAllResult;
      try {
        page = await this.readAll({ after, limit, filter: options.filter });
        failures = 0;
      } catch (error) {
        await backOff(error);
        continue;
      }
      for (const event of page.events) {
        if (signal.aborted) return;
        yield { kind: 'event', event };
        after = event.position;
      }
      after = page.lastPosition;
      caughtUp = page.endOfFeed;
    }
    let reported: Position | 'start' = after;
    yield { kind: 'caughtUp', position: after };

    while (!signal.aborted) {
      const feed = new LiveFeed();
      const filter = serverFilter(options.filter, (position) => feed.onCheckpoint(position));
      try {
        const from = after === 'start' ? 'start' : decodeEsdbPosition(after);
        feed.attach(this.client.subscribeToAll({ fromPosition: from, filter }));
        for (let item = await feed.next(signal); item; item = await feed.next(signal)) {
          failures = 0;
          if (item.kind === 'event') {
            const event = item.resolved.event;
            if (!event?.position) continue;
            const position = encodeEsdbPosition(event.position);
            if (after !== 'start' && position <= after) continue;
            if (!isSystemEvent(event) && matchesFilter(event, options.filter)) {
              if (signal.aborted) return;
              yield { kind: 'event', event: toRecordedEvent(event, this.schemas) };
            }
            after = position;
            continue;
          }
          if (item.kind === 'checkpoint') {
            const position = encodeEsdbPosition(item.position);
            if (after === 'start' || position > after) after = position;
          }
          // Report caughtUp only once everything received before the marker has been handed out.
          if (feed.isDrained() && reported !== after) {
            reported = after;
            yield { kind: 'caughtUp', position: after };
          }
        }
        // Ended without an error (server shutdown, leader change): subscribe again from `after`.
      } catch (error) {
        if (signal.aborted) return;
        await backOff(error);
      } finally {
        await feed.close();
      }
    }
  }

  async headPosition(): Promise<Position | null> {
    for await (const { event, position } of this.scanAll('backwards', 'end', 256)) {
      if (!isSystemEvent(event)) return position;
    }
    return null;
  }

  /** Counting would mean reading all of $all; callers show an indeterminate progress bar instead. */
  async countEvents(): Promise<null> {
    return null;
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.client.dispose();
  }
}
