import { randomUUID } from 'node:crypto';
import { DuplicateEventError, EmptyAppendError, WrongExpectedRevisionError, describeExpected } from '../errors';
import { comparePositions, decodeSqlPosition, encodeSqlPosition } from '../position';
import { pollingSubscription } from '../polling-subscription';
import { EventSchemas, noUpcasting } from '../upcasting';
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
import { ensureEventStoreSchema } from './event-store-schema';
import { UNIQUE_VIOLATION, sqlConstraint, sqlErrorCode, type SqlExecutor, type SqlQueryable } from './sql-executor';

const NOTIFY_CHANNEL = 'sy_events';

interface EventRow {
  stream_id: string;
  stream_revision: string;
  transaction_id: string;
  global_position: string;
  event_id: string;
  event_type: string;
  schema_version: number;
  data: object;
  metadata: Record<string, unknown>;
  recorded_at: Date | string;
}

const EVENT_COLUMNS = `stream_id, stream_revision::text AS stream_revision, transaction_id::text AS transaction_id,
  global_position::text AS global_position, event_id::text AS event_id, event_type, schema_version, data, metadata, recorded_at`;

/** PostgreSQL and PGlite adapter: the same SQL on both, through SqlExecutor. */
export class SqlEventStore implements EventStore {
  readonly name: string;
  private readonly wakeup = new Wakeup();
  private unlisten: (() => Promise<void>) | null = null;

  private constructor(
    private readonly executor: SqlExecutor,
    private readonly schemas: EventSchemas,
  ) {
    this.name = executor.dialect;
  }

  static async open(executor: SqlExecutor, schemas: EventSchemas = noUpcasting): Promise<SqlEventStore> {
    await ensureEventStoreSchema(executor);
    const store = new SqlEventStore(executor, schemas);
    // Other processes append too when the server store is shared; their NOTIFY wakes our pollers.
    if (executor.dialect === 'postgres') {
      store.unlisten = await executor.listen(NOTIFY_CHANNEL, () => store.wakeup.notify());
    }
    return store;
  }

  async appendToStream(streamId: string, events: readonly NewEvent[], options: AppendOptions): Promise<AppendResult> {
    if (events.length === 0) throw new EmptyAppendError(streamId);
    const prepared = events.map((event) => ({ ...event, eventId: event.eventId ?? randomUUID() }));
    try {
      const result = await this.executor.transaction((tx) => this.appendInTransaction(tx, streamId, prepared, options));
      this.wakeup.notify();
      return result;
    } catch (error) {
      const isDuplicate = sqlErrorCode(error) === UNIQUE_VIOLATION && sqlConstraint(error) !== 'sy_events_pkey';
      const callerIds = events.every((e) => e.eventId);
      if ((isDuplicate || error instanceof WrongExpectedRevisionError) && callerIds) {
        const replay = await this.exactReplay(streamId, prepared, options.expectedRevision);
        if (replay) return replay;
      }
      if (isDuplicate) throw new DuplicateEventError(prepared.map((e) => e.eventId));
      if (sqlErrorCode(error) === UNIQUE_VIOLATION) {
        // Lost a race on stream creation or revision: report it as the concurrency conflict it is.
        const current = await this.currentRevision(this.executor, streamId);
        throw new WrongExpectedRevisionError(streamId, describeExpected(options.expectedRevision), current);
      }
      throw error;
    }
  }

  private async appendInTransaction(
    tx: SqlQueryable,
    streamId: string,
    events: Array<NewEvent & { eventId: string }>,
    options: AppendOptions,
  ): Promise<AppendResult> {
    const count = events.length;
    // Taking the stream row lock must be the transaction's first write: it fixes this writer's
    // transaction id after every earlier writer of the stream, so the feed keeps stream order.
    const lock = await this.lockStream(tx, streamId, count, options.expectedRevision);
    if (!lock) {
      const current = await this.currentRevision(tx, streamId);
      throw new WrongExpectedRevisionError(streamId, describeExpected(options.expectedRevision), current);
    }
    const previous = lock.revision - BigInt(count);
    const inserted = await tx.query<{ transaction_id: string; global_position: string }>(
      `INSERT INTO sy_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
       SELECT $1, $2::bigint + t.ord, t.event_id::uuid, t.event_type, t.schema_version, t.data::jsonb, t.metadata::jsonb
       FROM unnest($3::text[], $4::text[], $5::int[], $6::text[], $7::text[])
            WITH ORDINALITY AS t(event_id, event_type, schema_version, data, metadata, ord)
       ORDER BY t.ord
       RETURNING transaction_id::text AS transaction_id, global_position::text AS global_position`,
      [
        streamId,
        previous.toString(),
        events.map((e) => e.eventId),
        events.map((e) => e.type),
        events.map((e) => this.schemas.currentVersion(e.type)),
        events.map((e) => JSON.stringify(e.data)),
        events.map((e) => JSON.stringify(e.metadata ?? {})),
      ],
    );
    await tx.query(`SELECT pg_notify('${NOTIFY_CHANNEL}', '')`);
    const last = inserted.rows.reduce((max, row) =>
      BigInt(row.global_position) > BigInt(max.global_position) ? row : max,
    );
    return {
      nextExpectedRevision: lock.revision,
      lastPosition: encodeSqlPosition(last.transaction_id, last.global_position),
      createdStream: lock.created,
    };
  }

  /** Moves the stream row to its revision after the append, or returns null when the expectation fails. */
  private async lockStream(
    tx: SqlQueryable,
    streamId: string,
    count: number,
    expected: ExpectedRevision,
  ): Promise<{ revision: bigint; created: boolean } | null> {
    const n = count.toString();
    let rows: Array<{ revision: string; created: boolean }>;
    if (typeof expected === 'bigint') {
      ({ rows } = await tx.query(
        `UPDATE sy_streams SET revision = revision + $2::bigint, updated_at = now()
         WHERE stream_id = $1 AND revision = $3::bigint RETURNING revision::text AS revision, false AS created`,
        [streamId, n, expected.toString()],
      ));
    } else if (expected === 'no_stream') {
      ({ rows } = await tx.query(
        `INSERT INTO sy_streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
         ON CONFLICT (stream_id) DO NOTHING RETURNING revision::text AS revision, true AS created`,
        [streamId, n],
      ));
    } else if (expected === 'stream_exists') {
      ({ rows } = await tx.query(
        `UPDATE sy_streams SET revision = revision + $2::bigint, updated_at = now()
         WHERE stream_id = $1 RETURNING revision::text AS revision, false AS created`,
        [streamId, n],
      ));
    } else {
      ({ rows } = await tx.query(
        `INSERT INTO sy_streams (stream_id, revision) VALUES ($1, $2::bigint - 1)
         ON CONFLICT (stream_id) DO UPDATE SET revision = sy_streams.revision + $2::bigint, updated_at = now()
         RETURNING revision::text AS revision, (xmax = 0) AS created`,
        [streamId, n],
      ));
    }
    const row = rows[0];
    return row ? { revision: BigInt(row.revision), created: Boolean(row.created) } : null;
  }

  private async currentRevision(queryable: SqlQueryable, streamId: string): Promise<bigint> {
    const { rows } = await queryable.query<{ revision: string }>(
      'SELECT revision::text AS revision FROM sy_streams WHERE stream_id = $1',
      [streamId],
    );
    return rows[0] ? BigInt(rows[0].revision) : -1n;
  }

  /** The same batch appended again at the same place counts as success (ESDB's idempotent append). */
  private async exactReplay(
    streamId: string,
    events: Array<{ eventId: string }>,
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
    const revision = await this.currentRevision(this.executor, streamId);
    if (revision < 0n) return { exists: false, revision: -1n, events: [] };
    const { rows } = await this.executor.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM sy_events WHERE stream_id = $1 AND stream_revision >= $2::bigint
       ORDER BY stream_revision LIMIT $3`,
      [streamId, (options.fromRevision ?? 0n).toString(), options.maxCount ?? null],
    );
    return { exists: true, revision, events: rows.map((row) => this.toRecorded(row)) };
  }

  async readAll(options: ReadAllOptions): Promise<ReadAllResult> {
    const { transactionId, globalPosition } = decodeSqlPosition(options.after);
    const params: unknown[] = [transactionId, globalPosition, options.limit];
    const conditions = filterConditions(options.filter, params);
    const { rows } = await this.executor.query<EventRow & { snapshot_xmin: string }>(
      `WITH snapshot AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
       SELECT ${EVENT_COLUMNS}, snapshot.xmin::text AS snapshot_xmin
       FROM sy_events, snapshot
       WHERE transaction_id < snapshot.xmin
         AND (transaction_id, global_position) > ($1::text::xid8, $2::bigint)
         ${conditions}
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      params,
    );
    const events = rows.map((row) => this.toRecorded(row));
    if (events.length === options.limit) {
      return { events, lastPosition: events[events.length - 1]!.position, endOfFeed: false };
    }
    // Exhausted: move the reader to the settled head so filtered-out stretches are not rescanned.
    const head = await this.settledHead();
    const last: Position | 'start' = events.length ? events[events.length - 1]!.position : options.after;
    const lastPosition = head && comparePositions(head, last) > 0 ? head : last;
    return { events, lastPosition, endOfFeed: true };
  }

  private async settledHead(): Promise<Position | null> {
    const { rows } = await this.executor.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text AS transaction_id, global_position::text AS global_position
       FROM sy_events WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    return rows[0] ? encodeSqlPosition(rows[0].transaction_id, rows[0].global_position) : null;
  }

  subscribeToAll(options: SubscribeOptions): AsyncIterable<SubscriptionItem> {
    return pollingSubscription((o) => this.readAll(o), this.wakeup, options);
  }

  headPosition(): Promise<Position | null> {
    return this.settledHead();
  }

  /** Lets same-process writers that bypass appendToStream (none today) or tests wake pollers. */
  notifyAppended(): void {
    this.wakeup.notify();
  }

  async close(): Promise<void> {
    if (this.unlisten) await this.unlisten();
    this.unlisten = null;
  }

  private toRecorded(row: EventRow): RecordedEvent {
    return this.schemas.upcast({
      streamId: row.stream_id,
      revision: BigInt(row.stream_revision),
      position: encodeSqlPosition(row.transaction_id, row.global_position),
      eventId: row.event_id,
      type: row.event_type,
      schemaVersion: row.schema_version,
      data: row.data,
      metadata: row.metadata,
      recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
    });
  }
}

function filterConditions(filter: EventFilter | undefined, params: unknown[]): string {
  let sql = '';
  if (filter?.eventTypes) {
    params.push(filter.eventTypes);
    sql += ` AND event_type = ANY($${params.length}::text[])`;
  }
  if (filter?.streamPrefixes) {
    params.push(filter.streamPrefixes.map((prefix) => prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + '%'));
    sql += ` AND stream_id LIKE ANY($${params.length}::text[])`;
  }
  return sql;
}
