import { randomUUID } from 'node:crypto';
import {
  DuplicateEventError,
  EmptyAppendError,
  WrongExpectedRevisionError,
  describeExpected,
} from '../errors';
import { comparePositions, decodeSqlPosition, encodeSqlPosition } from '../position';
import { DEFAULT_IDLE_POLL_MS, pollingSubscription } from '../polling-subscription';
import { EventSchemas, noUpcasting } from '../upcasting';
import { SharedFeedReads } from '../shared-feed-reads';
import { Wakeup } from '../wakeup';
import type {
  AppendOptions,
  AppendResult,
  EventFilter,
  EventStore,
  ExpectedRevision,
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
import { EVENT_COLUMNS, toRecordedEvent, type EventRow } from './event-rows';
import { ensureEventStoreSchema } from './event-store-schema';
import { feedPageSql } from './feed-page';
import { SETTLED, withSettledHorizon } from './settled-horizon';
import { filterConditions } from './sql-filter';
import { SqlSnapshotStore } from './sql-snapshot-store';
import { LONG_WORK, UNIQUE_VIOLATION, sqlConstraint, sqlErrorCode, type SqlExecutor } from '@switchyard/sql';
import { type AppendEvent, callAppend } from './append-function';
import { RecentAppends } from './recent-appends';
import { wakeHintOf } from './wake-hint';

/** sy_append NOTIFYs this channel on every commit (see append-function.ts). */
const NOTIFY_CHANNEL = 'sy_events';
const EVENT_ID_KEY = 'sy_events_event_id_key';

type PreparedEvent = NewEvent & AppendEvent;

/**
 * PostgreSQL and PGlite adapter: the same SQL on both, through SqlExecutor. Global order is the pair
 * (transaction_id, global_position) and readers only see rows whose transaction id is below the
 * settled horizon, the oldest append still in flight (settled-horizon.ts, architecture-anchors
 * §2.3), so nothing can later appear behind a checkpoint, and transactions that do not append to
 * the store (in another database, or on other tables) hold no reader back.
 */
export class SqlEventStore implements EventStore {
  readonly name: string;
  readonly snapshots: SqlSnapshotStore;
  private readonly wakeup = new Wakeup();
  private readonly sharedReads = new SharedFeedReads((options) => this.readAll(options));
  private readonly recentAppends = new RecentAppends();
  private unlisten: (() => Promise<void>) | null = null;
  /** The subscribers' fallback read, one beat for all of them (see beat). */
  private readonly idleBeat: NodeJS.Timeout;
  private beating = false;

  private constructor(
    private readonly executor: SqlExecutor,
    private readonly schemas: EventSchemas,
  ) {
    this.name = executor.dialect;
    this.snapshots = new SqlSnapshotStore(executor);
    this.idleBeat = setInterval(() => void this.beat(), DEFAULT_IDLE_POLL_MS);
    this.idleBeat.unref();
  }

  static async open(executor: SqlExecutor, schemas: EventSchemas = noUpcasting): Promise<SqlEventStore> {
    await ensureEventStoreSchema(executor);
    const store = new SqlEventStore(executor, schemas);
    // Other processes append too when the server store is shared; their NOTIFY wakes our pollers.
    if (executor.dialect === 'postgres') {
      store.unlisten = await executor.listen(NOTIFY_CHANNEL, (payload) =>
        store.wakeup.notify(wakeHintOf(payload)),
      );
    }
    return store;
  }

  async appendToStream(
    streamId: string,
    events: readonly NewEvent[],
    options: AppendOptions,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new EmptyAppendError(streamId);
    const expected = options.expectedRevision;
    const prepared = events.map((event) => ({
      ...event,
      eventId: event.eventId ?? randomUUID(),
      schemaVersion: this.schemas.currentVersion(event.type),
      dataJson: JSON.stringify(event.data),
      metadataJson: JSON.stringify(event.metadata ?? {}),
    }));
    try {
      const outcome = await callAppend(this.executor, streamId, expected, prepared);
      if (outcome.kind === 'conflict') {
        throw new WrongExpectedRevisionError(streamId, describeExpected(expected), outcome.actual);
      }
      for (const event of prepared)
        this.recentAppends.remember(event.eventId, { data: event.dataJson, metadata: event.metadataJson });
      const lastPosition = encodeSqlPosition(outcome.transactionId, outcome.globalPosition);
      this.wakeup.notify({ types: [...new Set(events.map((event) => event.type))], position: lastPosition });
      return {
        nextExpectedRevision: outcome.revision,
        lastPosition,
        createdStream: outcome.revision === BigInt(events.length - 1),
      };
    } catch (error) {
      const duplicate = sqlErrorCode(error) === UNIQUE_VIOLATION && sqlConstraint(error) === EVENT_ID_KEY;
      if ((duplicate || error instanceof WrongExpectedRevisionError) && events.every((e) => e.eventId)) {
        const replay = await this.exactReplay(streamId, prepared, expected);
        if (replay) return replay;
      }
      if (duplicate) throw new DuplicateEventError(await this.collidingIds(prepared));
      throw error;
    }
  }

  /** The batch's ids that collide: already stored, or repeated within the batch itself. */
  private async collidingIds(events: PreparedEvent[]): Promise<string[]> {
    const { rows } = await this.executor.query<{ event_id: string }>(
      'SELECT event_id::text AS event_id FROM sy_events WHERE event_id = ANY($1::uuid[])',
      [events.map((e) => e.eventId)],
    );
    const colliding = new Set(rows.map((row) => row.event_id));
    const seen = new Set<string>();
    for (const { eventId } of events) {
      if (seen.has(eventId)) colliding.add(eventId);
      seen.add(eventId);
    }
    return [...colliding];
  }

  /** The same batch appended again at the same place counts as success (ESDB's idempotent append). */
  private async exactReplay(
    streamId: string,
    events: PreparedEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult | null> {
    const { rows } = await this.executor.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM sy_events WHERE event_id = ANY($1::uuid[])`,
      [events.map((e) => e.eventId)],
    );
    const byId = new Map(rows.map((row) => [row.event_id, row]));
    const stored = events.map((e) => byId.get(e.eventId));
    if (stored.some((row) => !row || row.stream_id !== streamId)) return null;
    const first = BigInt(stored[0]!.stream_revision);
    if (!stored.every((row, i) => BigInt(row!.stream_revision) === first + BigInt(i))) return null;
    if (typeof expected === 'bigint' && expected !== first - 1n) return null;
    if (expected === 'no_stream' && first !== 0n) return null;
    const positions = stored.map((row) => encodeSqlPosition(row!.transaction_id, row!.global_position));
    positions.sort(comparePositions);
    return {
      nextExpectedRevision: BigInt(stored[stored.length - 1]!.stream_revision),
      lastPosition: positions[positions.length - 1]!,
      createdStream: false,
    };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    // One statement, so the revision and the events come from the same snapshot.
    const { rows } = await this.executor.query<Partial<EventRow> & { current_revision: string }>(
      `SELECT s.revision::text AS current_revision, e.*
       FROM sy_streams s
       LEFT JOIN LATERAL (
         SELECT ${EVENT_COLUMNS}, stream_revision AS sort_revision FROM sy_events
         WHERE stream_id = s.stream_id AND stream_revision >= $2::bigint
         ORDER BY sy_events.stream_revision LIMIT $3) e ON true
       WHERE s.stream_id = $1
       ORDER BY e.sort_revision`,
      [streamId, (options.fromRevision ?? 0n).toString(), options.maxCount ?? null],
      { prepared: true },
    );
    if (rows.length === 0) return { exists: false, revision: -1n, events: [] };
    return {
      exists: true,
      revision: BigInt(rows[0]!.current_revision),
      events: rows.filter((row) => row.event_id).map((row) => toRecordedEvent(row as EventRow, this.schemas)),
    };
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const { transactionId, globalPosition } = decodeSqlPosition(options.after);
    const params: unknown[] = [transactionId, globalPosition, options.limit];
    const held = this.recentAppends.snapshot();
    if (held.size > 0) params.push([...held.keys()]);
    // Prepared: a filtered page is a UNION ALL of a branch per type, costly to plan on every call.
    const sql = feedPageSql(options.filter, params, {
      ...options,
      ...(held.size > 0 && { heldIds: `$${params.length}` }),
    });
    const { rows } = await this.executor.query<EventRow>(sql, params, { prepared: true });
    // The page's rows, then the settled head's (no event id; none at all when the store is empty).
    const events: RecordedEvent[] = [];
    let head: Position | null = null;
    for (const row of rows) {
      if (row.event_id === null) {
        head = encodeSqlPosition(row.transaction_id, row.global_position);
        continue;
      }
      // A held event's row comes without its payload; a row whose data is jsonb null is not held.
      const heldPayload = row.data === null ? held.get(row.event_id)?.payload() : undefined;
      events.push(toRecordedEvent(heldPayload ? { ...row, ...heldPayload } : row, this.schemas));
    }
    if (head === null) return { events: [], lastPosition: options.after, endOfFeed: true };
    const last = events[events.length - 1];
    const endOfFeed = events.length < options.limit || last!.position === head;
    if (!endOfFeed) return { events, lastPosition: last!.position, endOfFeed };
    // Exhausted: move the reader to the settled head so filtered-out stretches are not rescanned.
    const lastPosition = comparePositions(head, options.after) > 0 ? head : options.after;
    return { events, lastPosition, endOfFeed };
  }

  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem> {
    return pollingSubscription((o) => this.sharedReads.read(o), this.wakeup, {
      idlePollMs: null,
      ...options,
    });
  }

  async headPosition(): Promise<Position | null> {
    const { rows } = await this.executor.query<{ transaction_id: string; global_position: string }>(
      withSettledHorizon(`SELECT transaction_id::text AS transaction_id, global_position::text AS global_position
       FROM sy_events WHERE ${SETTLED}
       ORDER BY sy_events.transaction_id DESC, sy_events.global_position DESC LIMIT 1`),
      [],
      { prepared: true },
    );
    return rows[0] ? encodeSqlPosition(rows[0].transaction_id, rows[0].global_position) : null;
  }

  /** A scan of the whole (filtered) feed, for a rebuild's progress: long work on a big store. */
  async countEvents(filter?: EventFilter): Promise<number> {
    const params: unknown[] = [];
    const conditions = filterConditions(filter, params);
    const { rows } = await this.executor.transaction(
      (tx) =>
        tx.query<{ count: string }>(
          withSettledHorizon(`SELECT count(*)::text AS count FROM sy_events WHERE ${SETTLED} ${conditions}`),
          params,
        ),
      LONG_WORK,
    );
    return Number(rows[0]!.count);
  }

  /**
   * The fallback for a wake-up that never came (a NOTIFY lost with its connection): once a second
   * the settled head is read, one index probe, and only subscribers behind it read the feed. Each
   * subscriber used to poll the feed itself on its own clock: an idle all-in-one app read it six
   * times a second, each a union over every type wanted (about 7 ms on PGlite). A head that has
   * not moved means nothing new has settled: an event that settles later than the head was read has
   * a transaction id at or above the settled horizon of that read, so above the head's.
   */
  private async beat(): Promise<void> {
    // A process that never subscribes (the CLI, a bare API) needs no beat.
    if (this.beating || !this.wakeup.listening) return;
    this.beating = true;
    try {
      const head = await this.headPosition();
      if (head !== null) this.wakeup.notify({ position: head });
    } catch {
      // Every subscriber reads and meets the failure itself, with its own retries and backoff.
      this.wakeup.notify();
    } finally {
      this.beating = false;
    }
  }

  /** Lets same-process writers that bypass appendToStream (none today) or tests wake pollers. */
  notifyAppended(): void {
    this.wakeup.notify();
  }

  async close(): Promise<void> {
    clearInterval(this.idleBeat);
    if (this.unlisten) await this.unlisten();
    this.unlisten = null;
  }
}
