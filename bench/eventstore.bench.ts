import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgExecutor, PgliteExecutor, type SqlExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { otherDatabaseBystander, type Bystander } from '@switchyard/testing';
import { filteredFeed, type FreshDatabase } from './eventstore/filtered-feed';
import { hotStreams } from './eventstore/hot-streams';
import { interleavedPages } from './eventstore/interleaved';
import { RawBaseline } from './eventstore/raw-baseline';
import {
  printFilteredFeed,
  printHotStreams,
  printMachine,
  printTable,
  type Measurement,
} from './eventstore/report';
import { storePageReader } from './eventstore/store-reader';
import { alternate, batchOf, benchEvent } from './eventstore/workload';

/**
 * bench:eventstore — our SQL event store against the plainest use of the same database, measured
 * in the same run: single-event appends (to new streams, and to one stream with an expected
 * revision), 100-event batches, and a catch-up read of everything in pages of 1000. Then, on fresh
 * databases: a filtered catch-up over a big feed where 1 % of the events match, against a feed of
 * only those events; and command latency on a 100-event and a 100,000-event stream (snapshots).
 */
const SINGLE_APPENDS = 2_000;
const BATCHED_EVENTS = 50_000;
const BATCH_SIZE = 100;
const PAGE_SIZE = 1_000;
const ROUNDS = 4;
const READ_ROUNDS = 3;
/** The filtered-feed comparison's big feed; PGlite gets a smaller one (WASM loads it slowly). */
const BIG_FEED = Number(process.env.BENCH_BIG_FEED ?? 1_000_000);
const PGLITE_BIG_FEED = Number(process.env.BENCH_PGLITE_BIG_FEED ?? 200_000);

/**
 * The catch-up read, our pages interleaved with the raw reader's, READ_ROUNDS times over. With a
 * bystander, while it holds a transaction open: every read then computes the settled horizon from
 * the lock table (settled-horizon.ts) instead of the snapshot alone.
 */
async function catchUpRead(
  store: SqlEventStore,
  raw: RawBaseline,
  label: string,
  bystander?: Bystander,
): Promise<Measurement> {
  const held = await bystander?.hold();
  try {
    const read = { oursMs: 0, rawMs: 0, ours: 0, raw: 0 };
    for (let round = 0; round < READ_ROUNDS; round++) {
      const ours = storePageReader(store, PAGE_SIZE);
      const plain = raw.pageReader(PAGE_SIZE);
      const { oursMs, rawMs } = await interleavedPages(ours.next, plain.next);
      Object.assign(read, {
        oursMs: read.oursMs + oursMs,
        rawMs: read.rawMs + rawMs,
        ours: read.ours + ours.count(),
        raw: read.raw + plain.count(),
      });
    }
    if (read.ours !== read.raw)
      throw new Error(`read ${read.ours} events from the store but ${read.raw} raw rows`);
    return { label, events: read.ours, oursMs: read.oursMs, rawMs: read.rawMs };
  } finally {
    await held?.release();
  }
}

async function benchmark(executor: SqlExecutor, bystander?: Bystander): Promise<Measurement[]> {
  const store = await SqlEventStore.open(executor);
  const raw = new RawBaseline(executor);
  await raw.setup();
  for (let i = 0; i < 50; i++) {
    await store.appendToStream(`warmup-${i}`, [benchEvent(i)], { expectedRevision: 'no_stream' });
    await raw.insertOne(`warmup-${i}`, benchEvent(i));
  }

  const perRound = SINGLE_APPENDS / ROUNDS;
  const newStreams = await alternate(
    ROUNDS,
    async (round) => {
      for (let i = 0; i < perRound; i++) {
        await store.appendToStream(`pr-${round}-${i}`, [benchEvent(i)], { expectedRevision: 'no_stream' });
      }
    },
    async (round) => {
      for (let i = 0; i < perRound; i++) await raw.insertOne(`pr-${round}-${i}`, benchEvent(i));
    },
  );

  let revision = -1n;
  const oneStream = await alternate(
    ROUNDS,
    async () => {
      for (let i = 0; i < perRound; i++) {
        const expectedRevision = revision < 0n ? 'no_stream' : revision;
        ({ nextExpectedRevision: revision } = await store.appendToStream('queue-acme', [benchEvent(i)], {
          expectedRevision,
        }));
      }
    },
    async () => {
      for (let i = 0; i < perRound; i++) await raw.insertOne('queue-acme', benchEvent(i));
    },
  );

  const batchesPerRound = BATCHED_EVENTS / BATCH_SIZE / ROUNDS;
  const batched = await alternate(
    ROUNDS,
    async (round) => {
      for (let b = 0; b < batchesPerRound; b++) {
        await store.appendToStream(`batch-${round}-${b}`, batchOf(BATCH_SIZE, b * BATCH_SIZE), {
          expectedRevision: 'no_stream',
        });
      }
    },
    async (round) => {
      for (let b = 0; b < batchesPerRound; b++)
        await raw.insertBatch(`batch-${round}-${b}`, batchOf(BATCH_SIZE, b));
    },
  );

  // Interleaved page by page, in rounds: the two readers see the same load and the same caches.
  const reads = [
    await catchUpRead(store, raw, `catch-up read, pages of ${PAGE_SIZE} (${READ_ROUNDS} reads)`),
  ];
  if (bystander) {
    reads.push(
      await catchUpRead(store, raw, '  the same, a transaction open in another database', bystander),
    );
  }
  await store.close();

  return [
    { label: 'append 1 event, new stream each', events: SINGLE_APPENDS, ...newStreams },
    { label: 'append 1 event, one stream (bigint rev)', events: SINGLE_APPENDS, ...oneStream },
    { label: `append ${BATCH_SIZE}-event batches`, events: BATCHED_EVENTS, ...batched },
    ...reads,
  ];
}

async function onPglite(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
  try {
    const executor = await PgliteExecutor.open(dataDir);
    try {
      const version = await serverVersion(executor);
      printTable(
        `PGlite (PostgreSQL ${version} in WASM, data directory ${dataDir})`,
        await benchmark(executor),
      );
      const fresh = async (): Promise<FreshDatabase> => {
        const memory = await PgliteExecutor.open();
        return { executor: memory, close: () => memory.close() };
      };
      printFilteredFeed(await filteredFeed(fresh, PGLITE_BIG_FEED));
      printHotStreams(await hotStreams(fresh));
    } finally {
      await executor.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function onPostgres(url: string): Promise<void> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = await PgExecutor.open(url, { max: 1 });
  try {
    await admin.exec(`CREATE SCHEMA ${schema}`);
    const executor = await PgExecutor.open(url, { options: `-c search_path=${schema}` });
    try {
      const version = await serverVersion(executor);
      printTable(
        `PostgreSQL ${version} over TCP (schema ${schema}, dropped afterwards)`,
        await benchmark(executor, otherDatabaseBystander(url)),
      );
      const fresh = () => freshSchema(url, admin);
      printFilteredFeed(await filteredFeed(fresh, BIG_FEED));
      printHotStreams(await hotStreams(fresh));
    } finally {
      await executor.close();
    }
  } finally {
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.close();
  }
}

async function freshSchema(url: string, admin: PgExecutor): Promise<FreshDatabase> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  await admin.exec(`CREATE SCHEMA ${schema}`);
  const executor = await PgExecutor.open(url, { options: `-c search_path=${schema}` });
  return {
    executor,
    async close() {
      await executor.close();
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

async function serverVersion(executor: SqlExecutor): Promise<string> {
  const { rows } = await executor.query<{ server_version: string }>('SHOW server_version');
  return rows[0]!.server_version;
}

async function main(): Promise<void> {
  const started = performance.now();
  const url = process.env.DATABASE_URL;
  printMachine([url ? 'PostgreSQL: DATABASE_URL is set' : 'PostgreSQL: skipped (DATABASE_URL is not set)']);
  await onPglite();
  if (url) await onPostgres(url);
  process.stdout.write(
    `\nours/raw < 1 means slower than the raw floor. Our append also locks and updates the stream row,\n` +
      `checks the expected revision, enforces unique event ids, and stamps xid8; our read filters on the\n` +
      `settled horizon and orders by (transaction_id, global_position). A filtered catch-up is in\n` +
      `proportion to the matching events when its time/baseline stays near 1; a command on a long\n` +
      `stream costs what it costs on a short one when long/short stays near 1.\n` +
      `total ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
