import { randomUUID } from 'node:crypto';
import { describeEachDatabase, eventually, scaledWait, untilSettled } from '@switchyard/testing';
import { dropTestSchema } from '../testing/drop-test-schema';
import type { EventFilter, ExpectedRevision, ReadAllOptions } from '../types';
import { EventSchemas } from '../upcasting';
import { STREAM_LOCK_SPACE, STREAM_LOCK_STATEMENT, callAppend } from './append-function';
import { SqlEventStore } from './sql-event-store';
import { wakeHintOf } from './wake-hint';
import type { SqlExecutor, SqlQueryable } from '@switchyard/sql';

/**
 * What the contract cannot see from outside the port: the stored schema version, the shape of the
 * append transaction, and (on PostgreSQL, which has real concurrent transactions) the xid8 feed's
 * guarantee against the classic lost event (architecture-anchors §4, experiment 1).
 */
describeEachDatabase('SqlEventStore', (database) => {
  let executor: SqlExecutor;
  beforeAll(async () => {
    executor = await database.open();
  });
  afterAll(async () => {
    await dropTestSchema(executor);
    await executor.close();
  });

  it('stores the current schema version and upcasts a row stored at an older one', async () => {
    const type = `Renamed${randomUUID().slice(0, 8)}`;
    const schemas = new EventSchemas().register({
      type,
      fromVersion: 1,
      upcast: (data) => ({ fullName: (data as { name: string }).name }),
    });
    const store = await SqlEventStore.open(executor, schemas);
    const stream = `upcast-${randomUUID()}`;
    const { lastPosition } = await store.appendToStream(
      stream,
      [
        { type, data: { fullName: 'Placeholder' } },
        { type, data: { fullName: 'Grace Hopper' } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const stored = await executor.query<{ schema_version: number }>(
      'SELECT schema_version FROM sy_events WHERE stream_id = $1 ORDER BY stream_revision',
      [stream],
    );
    expect(stored.rows.map((row) => row.schema_version)).toEqual([2, 2]);

    // What a row written by the previous release looks like.
    await executor.query(
      `UPDATE sy_events SET schema_version = 1, data = '{"name":"Ada Lovelace"}'
       WHERE stream_id = $1 AND stream_revision = 0`,
      [stream],
    );

    const expected = [
      { schemaVersion: 2, data: { fullName: 'Ada Lovelace' } },
      { schemaVersion: 2, data: { fullName: 'Grace Hopper' } },
    ];
    expect((await store.readStream(stream)).events).toMatchObject(expected);
    // The feed shows the append once no older transaction on the server (another worker's) is open.
    await untilSettled(store, lastPosition);
    const all = await store.readAll({ after: 'start', limit: 1000, filter: { streamPrefixes: [stream] } });
    expect(all.events).toMatchObject(expected);
    expect(all.lastPosition >= lastPosition).toBe(true);
    await store.close();
  });

  it('compresses event data with lz4 on a PostgreSQL server that has it, and leaves PGlite on its default', async () => {
    await SqlEventStore.open(executor);
    const lz4 = await executor
      .transaction((tx) => tx.query(`SET LOCAL default_toast_compression = lz4`))
      .then(() => true)
      .catch(() => false);
    const { rows } = await executor.query<{ compression: string }>(
      `SELECT attcompression AS compression FROM pg_attribute
       WHERE attrelid = 'sy_events'::regclass AND attname = 'data'`,
    );
    expect(rows[0]!.compression).toBe(database.name === 'postgres' && lz4 ? 'l' : '');
  });

  it('appends in one statement, whose function takes the stream lock before anything else', async () => {
    const recorder = recordStatements(executor);
    const store = await SqlEventStore.open(recorder.executor);
    const stream = `locked-${randomUUID()}`;
    const forms: Array<[string, ExpectedRevision]> = [
      [stream, 'no_stream'],
      [stream, 0n],
      [stream, 'stream_exists'],
      [stream, 'any'],
      [`${stream}-new`, 'any'],
    ];
    recorder.statements.length = 0;
    for (const [streamId, expectedRevision] of forms) {
      await store.appendToStream(streamId, [{ type: 'Locked', data: {} }], { expectedRevision });
    }
    expect(recorder.statements).toHaveLength(forms.length);
    for (const sql of recorder.statements) expect(sql).toMatch(/^SELECT .* FROM sy_append\(/s);

    const { rows } = await executor.query<{ source: string }>(
      `SELECT prosrc AS source FROM pg_proc
       WHERE proname = 'sy_append' AND pronamespace = current_schema()::regnamespace`,
    );
    const body = rows[0]!.source.replace(/--[^\n]*/g, '');
    // Only the check that nothing was written before (which reads pg_locks, or raises) comes first.
    const start = body.indexOf('BEGIN') + 'BEGIN'.length;
    const beforeLock = body.slice(start, body.indexOf(STREAM_LOCK_STATEMENT, start));
    expect(beforeLock).toMatch(
      /^\s*IF pg_current_xact_id_if_assigned\(\) IS NOT NULL THEN\s+IF NOT EXISTS \(\s*SELECT FROM pg_locks/,
    );
    expect(beforeLock).toMatch(/END IF;\s*END IF;\s*$/);
    expect(beforeLock).not.toMatch(/INSERT|UPDATE|DELETE|PERFORM|nextval/i);
    await store.close();
  });

  it('refuses an append in a transaction that wrote before it, and allows a second append in one', async () => {
    await SqlEventStore.open(executor);
    const stream = `late-${randomUUID()}`;
    const append = (tx: SqlQueryable, streamId: string) =>
      callAppend(tx, streamId, 'any', [
        { eventId: randomUUID(), type: 'Late', schemaVersion: 1, dataJson: '{}', metadataJson: '{}' },
      ]);
    const afterWrite = executor.transaction(async (tx) => {
      await tx.query('SELECT pg_current_xact_id()');
      await append(tx, stream);
    });
    await expect(afterWrite).rejects.toThrow('sy_append must come before any other write of its transaction');
    await executor.transaction(async (tx) => {
      await append(tx, stream);
      await append(tx, `${stream}-other`);
    });
    expect(
      (await executor.query('SELECT 1 FROM sy_events WHERE stream_id LIKE $1', [`${stream}%`])).rows,
    ).toHaveLength(2);
  });

  it('reads the feed on its idle beat only when the settled head moved, and then finds what no wake-up announced', async () => {
    const recorder = recordStatements(executor);
    const watching = await SqlEventStore.open(recorder.executor);
    // Another store's appends wake only its own subscribers (on PGlite nothing else tells ours).
    const elsewhere = await SqlEventStore.open(executor);
    const type = `Unannounced${randomUUID().slice(0, 8)}`;
    const controller = new AbortController();
    const subscription = watching
      .subscribeToAll({
        after: (await watching.headPosition()) ?? 'start',
        filter: { eventTypes: [type] },
        signal: controller.signal,
      })
      [Symbol.asyncIterator]();
    try {
      expect((await subscription.next()).value).toMatchObject({ kind: 'caughtUp' });
      const feedReads = () => recorder.statements.filter((sql) => sql.includes('sort_xid')).length;
      const headReads = () => recorder.statements.filter((sql) => sql.includes('DESC LIMIT 1')).length;
      const readsWhenIdle = feedReads();
      const beatsBefore = headReads();
      const giveUpAt = Date.now() + 5000;
      while (headReads() < beatsBefore + 2 && Date.now() < giveUpAt)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(headReads()).toBeGreaterThanOrEqual(beatsBefore + 2);
      expect(feedReads()).toBe(readsWhenIdle);

      const stream = `unannounced-${randomUUID()}`;
      await elsewhere.appendToStream(stream, [{ type, data: {} }], { expectedRevision: 'no_stream' });
      expect((await subscription.next()).value).toMatchObject({ kind: 'event', event: { streamId: stream } });
    } finally {
      controller.abort();
      await subscription.return?.();
      await watching.close();
      await elsewhere.close();
    }
  });

  if (database.name === 'postgres') {
    // One branch, a merge of two type branches, a merge of two category branches, and both of
    // those read near the head in one pass.
    const reads: Read[] = [
      { filter: { eventTypes: ['Raw'] } },
      { filter: { eventTypes: ['Raw', 'RawOther'] } },
      { filter: { streamCategories: ['early', 'late'] } },
      { filter: { eventTypes: ['Raw', 'RawOther'] }, nearHead: true },
      { filter: { streamCategories: ['early', 'late'] }, nearHead: true },
    ];
    it.each(reads)(
      'does not skip an event whose transaction started first but committed last (%j)',
      async (read) => {
        const store = await SqlEventStore.open(executor);
        const start = (await store.headPosition()) ?? 'start';
        const [early, late] = [`early-${randomUUID()}`, `late-${randomUUID()}`];
        const earlyHasXid = deferred();
        const lateInserted = deferred();
        const lateMayCommit = deferred();

        // "early" takes the smaller transaction id but inserts second, so it gets the larger position;
        // "late" inserts first (smaller position) and commits last. A reader checkpointing on the
        // position alone would move past late's event before it became visible, and never see it.
        // Each takes its stream's lock before its id, as sy_append does: the settled horizon
        // counts a transaction as an appender by that lock (settled-horizon.ts).
        const earlyTx = executor.transaction(async (tx) => {
          await lockStream(tx, early);
          await tx.query('SELECT pg_current_xact_id()');
          earlyHasXid.resolve();
          await lateInserted.promise;
          await insertRawEvent(tx, early);
        });
        await earlyHasXid.promise;
        const lateTx = executor.transaction(async (tx) => {
          await lockStream(tx, late);
          await tx.query('SELECT pg_current_xact_id()');
          await insertRawEvent(tx, late);
          lateInserted.resolve();
          await lateMayCommit.promise;
        });
        await earlyTx;

        // Another test's append elsewhere on the server may hold the horizon back for a moment.
        const first = await readUntil(store, read, start, (streams) => streams.length > 0);
        expect(first.streams).toEqual([early]);

        lateMayCommit.resolve();
        await lateTx;
        const second = await readUntil(store, read, first.lastPosition, (streams) => streams.length > 0);
        expect(second.streams).toEqual([late]);

        const { rows } = await executor.query<{ stream_id: string }>(
          'SELECT stream_id FROM sy_events WHERE stream_id = ANY($1) ORDER BY global_position',
          [[early, late]],
        );
        expect(rows.map((row) => row.stream_id)).toEqual([late, early]);
        await store.close();
      },
    );
  }

  it('reads the same pages near the head in one pass as through a branch per type or category', async () => {
    const store = await SqlEventStore.open(executor);
    const start = (await store.headPosition()) ?? 'start';
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 12; i++) {
      const type = `Pass${tag}${i % 3}`;
      await store.appendToStream(`pass${i % 2}${tag}-${i}`, [{ type, data: { i } }], {
        expectedRevision: 'any',
      });
    }
    const filters: EventFilter[] = [
      { eventTypes: [`Pass${tag}0`, `Pass${tag}2`] },
      { eventTypes: [`Pass${tag}0`, `Pass${tag}1`], streamPrefixes: [`pass1${tag}`] },
      { streamCategories: [`pass0${tag}`, `pass1${tag}`] },
    ];
    const pages = async (filter: EventFilter, nearHead: boolean) => {
      const read: Array<{ data: unknown[]; lastPosition: string; endOfFeed: boolean }> = [];
      let after: string = start;
      for (let page = 0; page < 10; page++) {
        const result = await store.readAll({ after, limit: 3, filter, nearHead });
        read.push({
          data: result.events.map((e) => e.data),
          lastPosition: result.lastPosition,
          endOfFeed: result.endOfFeed,
        });
        if (result.endOfFeed) break;
        after = result.lastPosition as string;
      }
      return read;
    };
    for (const filter of filters) {
      const branched = await pages(filter, false);
      expect(branched.flatMap((page) => page.data).length).toBeGreaterThan(0);
      expect(await pages(filter, true)).toEqual(branched);
    }
    await store.close();
  });

  it('hands its own large appends to its feed readers from memory, exactly as another process reads their rows', async () => {
    const recorder = recordStatements(executor);
    const appending = await SqlEventStore.open(recorder.executor);
    const elsewhere = await SqlEventStore.open(executor);
    const stream = `held-${randomUUID()}`;
    // Keys out of jsonb's order at every level, numbers jsonb spells otherwise, a key that is
    // a prototype's name elsewhere, and enough rows to be held (MIN_HELD_BYTES).
    const large = (n: number) => ({
      zeta: 'last by bytes',
      é: 'two UTF-8 bytes',
      a: [{ yy: 1e21, x: -0.5e-7 }, null, ['b', { c: true }]],
      ['__proto__']: { polluted: false },
      rows: Array.from({ length: 1000 }, (_, i) => `row-${n}-${i}`),
    });
    const callerId = randomUUID().toUpperCase();
    const { lastPosition } = await appending.appendToStream(
      stream,
      [
        { type: 'Held', data: large(1), metadata: { zz: 1, a: 2 } },
        { type: 'Small', data: { b: 1, a: 2 } },
        { type: 'Held', data: large(2), eventId: callerId },
      ],
      { expectedRevision: 'no_stream' },
    );
    await untilSettled(appending, lastPosition);
    recorder.statements.length = 0;
    const read = (store: SqlEventStore) =>
      store.readAll({ after: 'start', limit: 1000, filter: { streamPrefixes: [stream] } });
    const [fromMemory, fromRows] = [await read(appending), await read(elsewhere)];
    expect(recorder.statements.some((sql) => sql.includes('CASE WHEN event_id = ANY('))).toBe(true);
    expect(fromRows.events.map((event) => event.type)).toEqual(['Held', 'Small', 'Held']);
    expect(fromMemory).toEqual(fromRows);
    // Down to the order of every object's keys, which JSON.stringify shows.
    const payloads = (events: typeof fromRows.events) =>
      JSON.stringify(events.map(({ data, metadata }) => ({ data, metadata })));
    expect(payloads(fromMemory.events)).toBe(payloads(fromRows.events));
    expect(Object.keys(fromMemory.events[0]!.data)).toEqual(['a', 'é', 'rows', 'zeta', '__proto__']);
    await appending.close();
    await elsewhere.close();
  });

  it('announces each append on sy_events with its types and its last position', async () => {
    const store = await SqlEventStore.open(executor);
    const type = `Announced${randomUUID().slice(0, 8)}`;
    const heard: string[] = [];
    const unlisten = await executor.listen('sy_events', (payload) => heard.push(payload));
    try {
      const { lastPosition } = await store.appendToStream(
        `announce-${randomUUID()}`,
        [
          { type, data: {} },
          { type, data: {} },
          { type: `${type}.other`, data: {} },
        ],
        { expectedRevision: 'no_stream' },
      );
      const mine = () => heard.map(wakeHintOf).find((hint) => hint?.types?.includes(type));
      await eventually('the wake hint of the append', async () => mine(), {
        timeoutMs: scaledWait(20_000),
        intervalMs: 10,
      });
      expect(mine()).toEqual({
        types: expect.arrayContaining([type, `${type}.other`]),
        position: lastPosition,
      });
      expect(mine()!.types).toHaveLength(2);
    } finally {
      await unlisten();
    }
  });
});

async function lockStream(tx: SqlQueryable, stream: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${STREAM_LOCK_SPACE}, hashtext($1))`, [stream]);
}

async function insertRawEvent(tx: SqlQueryable, stream: string): Promise<void> {
  await tx.query('INSERT INTO sy_streams (stream_id, revision) VALUES ($1, 0)', [stream]);
  await tx.query(
    `INSERT INTO sy_events (stream_id, stream_revision, event_id, event_type, schema_version, data, metadata)
     VALUES ($1, 0, $2::uuid, 'Raw', 1, '{}', '{}')`,
    [stream, randomUUID()],
  );
}

/** Reads from `after` until the page's streams satisfy the condition (a wait on state, not on time). */
type Read = Pick<ReadAllOptions, 'nearHead'> & { filter: EventFilter };

async function readUntil(
  store: SqlEventStore,
  read: Read,
  after: string,
  done: (streams: string[]) => boolean,
): Promise<{ streams: string[]; lastPosition: string }> {
  return eventually(
    `a page after ${after} with the streams awaited`,
    async () => {
      const page = await store.readAll({ after, limit: 100, ...read });
      const streams = page.events.map((e) => e.streamId);
      return done(streams) ? { streams, lastPosition: page.lastPosition } : undefined;
    },
    { timeoutMs: scaledWait(20_000) },
  );
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The executor, with every statement it runs outside transactions recorded in order. */
function recordStatements(executor: SqlExecutor): { executor: SqlExecutor; statements: string[] } {
  const statements: string[] = [];
  const recording = new Proxy(executor, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (property !== 'query') return value.bind(target);
      return (sql: string, ...rest: unknown[]) => {
        statements.push(sql.trim());
        return value.call(target, sql, ...rest);
      };
    },
  });
  return { executor: recording, statements };
}
