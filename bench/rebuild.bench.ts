import { Pool } from 'pg';
import { createActivityLogProjection } from '@switchyard/activity-log';
import { PgExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { type EventStore, type NewEvent } from '@switchyard/event-store';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { rebuildBlueGreen } from '@switchyard/projection';
import { printMachine } from './eventstore/report';
import { seedEvents } from './logs/seed-events';
import { rawRebuildLoop } from './rebuild/raw-loop';
import { streamSummaryProjection } from './rebuild/stream-summary-projection';

/**
 * bench:rebuild — blue-green rebuilds on PostgreSQL, beside the raw read-fold-upsert loop of
 * performance-anchors §2.2 measured in the same run on the same events.
 *  1. a simple projection (one row per stream) over BENCH_REBUILD_EVENTS events (default 200,000;
 *     the goal is stated for 1,000,000): ours ≥ 0.5 × raw, and 1 M events in < 20 s;
 *  2. the activity log over bench:logs's workload at BENCH_REBUILD_LOG_SCALE (default 0.05 of the
 *     1.9 M events; 1 for the full size), in a database of its own so that its feed is that
 *     workload alone, as in bench:logs: < 60 s at full size (342 s before blue-green rebuilds).
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EVENTS = Number(process.env.BENCH_REBUILD_EVENTS ?? '200000');
const LOG_SCALE = Number(process.env.BENCH_REBUILD_LOG_SCALE ?? '0.05');
const DATABASE = 'switchyard_bench_rebuild';
/** The activity log's workload has a feed of its own, as in bench:logs, where the 342 s came from. */
const LOG_DATABASE = 'switchyard_bench_rebuild_log';
const DAY = 86_400_000;
const FULL_LOG_EVENTS = 1_900_000;

const log = (line: string) => process.stderr.write(`[bench:rebuild] ${line}\n`);
const thousands = (n: number) => Math.round(n).toLocaleString('en-US');

const databaseUrl = (name: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function recreateDatabase(name: string): Promise<void> {
  const admin = new Pool({ connectionString: ADMIN_URL, max: 1 });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
}

/** About 3.4 events per stream, as in §2.2 (293,500 rows for 1 M events), 4 appenders at once. */
async function seedStreams(store: EventStore, events: number): Promise<void> {
  const streams = Math.max(1, Math.round(events / 3.4));
  let next = 0;
  const appender = async () => {
    for (let stream = next++; stream < streams; stream = next++) {
      const count = Math.floor((events * (stream + 1)) / streams) - Math.floor((events * stream) / streams);
      const batch: NewEvent[] = Array.from({ length: count }, (_, i) => ({
        type: ['Opened', 'Labelled', 'Renamed', 'Closed'][i % 4]!,
        data: { stream, index: i, title: `pull request ${stream}`, labels: ['bench', 'rebuild'] },
      }));
      if (count > 0) await store.appendToStream(`pr-${stream}`, batch, { expectedRevision: 'any' });
    }
  };
  await Promise.all(Array.from({ length: 4 }, appender));
}

/** Opens a fresh database with its event store; `work` gets them, and they are closed after. */
async function inFreshDatabase<T>(
  name: string,
  work: (db: { executor: PgExecutor; raw: Pool; store: SqlEventStore }) => Promise<T>,
): Promise<T> {
  await recreateDatabase(name);
  const url = databaseUrl(name);
  const executor = await PgExecutor.open(url);
  const raw = new Pool({ connectionString: url, max: 4 });
  const store = await SqlEventStore.open(executor);
  try {
    return await work({ executor, raw, store });
  } finally {
    await store.close();
    await raw.end();
    await executor.close();
  }
}

async function main(): Promise<void> {
  printMachine([`simple projection: ${thousands(EVENTS)} events; activity log: scale ${LOG_SCALE}`]);

  const rawRate = await inFreshDatabase(DATABASE, async ({ executor, raw, store }) => {
    log(`seeding ${thousands(EVENTS)} events...`);
    await seedStreams(store, EVENTS);
    await raw.query('VACUUM ANALYZE sy_events');
    log('raw loop...');
    const rawRun = await rawRebuildLoop(raw);
    log('blue-green rebuild of the simple projection...');
    const ours = await rebuildBlueGreen({ executor, store, projection: streamSummaryProjection });
    const rawRate = rawRun.events / rawRun.seconds;
    const ourRate = ours.events / ours.seconds;
    process.stdout.write(
      `\nsimple projection (${thousands(ours.records ?? 0)} rows)\n` +
        `  raw read-fold-upsert loop: ${thousands(rawRun.events)} events in ${rawRun.seconds.toFixed(1)} s, ${thousands(rawRate)} events/s\n` +
        `  blue-green rebuild:        ${thousands(ours.events)} events in ${ours.seconds.toFixed(1)} s, ${thousands(ourRate)} events/s\n` +
        `  ours/raw ${(ourRate / rawRate).toFixed(2)} (goal ≥ 0.50); 1 M events in ${(1_000_000 / ourRate).toFixed(1)} s at this rate (goal < 20 s)\n`,
    );
    return rawRate;
  });

  await inFreshDatabase(LOG_DATABASE, async ({ executor, raw, store }) => {
    const now = new Date();
    const perRepo = Math.round(100_000 * LOG_SCALE);
    const plans = [
      { repository: 'acme/mono', events: Math.round(1_000_000 * LOG_SCALE) },
      ...Array.from({ length: 9 }, (_, i) => ({ repository: `acme/repo-${i + 1}`, events: perRepo })),
    ];
    log(
      `seeding the activity-log workload (${thousands(plans.reduce((sum, p) => sum + p.events, 0))} events)...`,
    );
    await seedEvents(store, plans, { from: new Date(now.getTime() - 30 * DAY), to: now }, () => undefined);
    // As for the simple projection: the state autovacuum leaves a live store in (hint bits set,
    // visibility map and statistics current), not that of rows appended seconds ago.
    await raw.query('VACUUM ANALYZE sy_events');
    log('blue-green rebuild of the activity log...');
    const logs = await rebuildBlueGreen({
      executor,
      store,
      projection: createActivityLogProjection([mergeQueueLogMapping]),
    });
    const logRate = logs.events / logs.seconds;
    process.stdout.write(
      `\nactivity log (${thousands(logs.records ?? 0)} records)\n` +
        `  blue-green rebuild: ${thousands(logs.events)} events in ${logs.seconds.toFixed(1)} s, ${thousands(logRate)} events/s\n` +
        `  1.9 M events in ${(FULL_LOG_EVENTS / logRate).toFixed(1)} s at this rate (goal < 60 s; 342 s before); ` +
        `ours/raw loop ${(logRate / rawRate).toFixed(2)}\n`,
    );
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
