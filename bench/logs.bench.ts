import { Pool } from 'pg';
import {
  ACTIVITY_LOG_TABLES,
  AggregateLogs,
  ListLogs,
  buildLogQuery,
  createActivityLogProjection,
  type LogQuery,
  type LogQueryParameters,
  type PageStart,
} from '@switchyard/activity-log';
import { PgExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { quoteIdentifier, readActiveGeneration, rebuildBlueGreen } from '@switchyard/projection';
import { decodeLogCursor } from '../libs/activity-log/src/http/log-cursor';
import { freshPostgresDatabase } from '@switchyard/testing';
import { startAppProcess, startServerProcess, type AppProcess } from './logs/app-process';
import { alternate, rotate, summarize } from './logs/latency';
import { printMachine, printPagePeers, printScenarios, type ScenarioResult } from './logs/report';
import { markReactorsAtHead, rebuildOtherReadModels, waitForSettledProjections } from './logs/settled-app';
import { seedEvents } from './logs/seed-events';
import { keepAliveClient, type HttpAnswer } from './logs/http-client';

/**
 * bench:logs — the activity log at scale on PostgreSQL: 1,000,000 merge-queue events in one
 * repository over 30 days plus 100,000 in each of nine others, appended through the event store;
 * a full rebuild of the log projection; then GET logs and GET logs/aggregate over HTTP against
 * the all-in-one app in its own process, each beside the very statements the service runs,
 * executed directly on the same database. BENCH_LOGS_SCALE=0.01 gives a quick dry run.
 */
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCALE = Number(process.env.BENCH_LOGS_SCALE ?? '1');
const DATABASE = 'switchyard_bench_logs';
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const PORT = 18_000 + (process.pid % 1000);
const BIG = 'acme/mono';
const DAY = 86_400_000;

const log = (line: string) => process.stderr.write(`[bench:logs] ${line}\n`);

async function main(): Promise<void> {
  const database = await freshPostgresDatabase(ADMIN_URL, DATABASE);
  const url = database.url;
  const executor = await PgExecutor.open(url);
  const raw = new Pool({ connectionString: url, max: 10 });
  let app: AppProcess | null = null;
  let peers: AppProcess | null = null;
  try {
    const version = (await raw.query('SHOW server_version')).rows[0].server_version as string;
    const settings = (
      await raw.query(
        `SELECT string_agg(name || '=' || setting || coalesce(unit, ''), ', ' ORDER BY name) AS s FROM pg_settings
         WHERE name IN ('shared_buffers', 'work_mem', 'max_parallel_workers_per_gather', 'effective_cache_size')`,
      )
    ).rows[0].s as string;
    printMachine([`PostgreSQL ${version} (${settings})`, `scale ${SCALE}`]);

    // 1. Seed through the event store.
    const store = await SqlEventStore.open(executor);
    const now = new Date();
    const window = { from: new Date(now.getTime() - 30 * DAY), to: now };
    const plans = [
      { repository: BIG, events: Math.round(1_000_000 * SCALE) },
      ...Array.from({ length: 9 }, (_, i) => ({
        repository: `acme/repo-${i + 1}`,
        events: Math.round(100_000 * SCALE),
      })),
    ];
    log(`appending ${plans.reduce((sum, p) => sum + p.events, 0).toLocaleString('en-US')} events...`);
    const seeded = await seedEvents(store, plans, window, (events) =>
      log(`  ${events.toLocaleString('en-US')} appended`),
    );
    process.stdout.write(
      `\nseed: ${seeded.events.toLocaleString('en-US')} domain events in ${seeded.appends.toLocaleString('en-US')} appends, ` +
        `${seeded.seconds.toFixed(1)} s (${Math.round(seeded.events / seeded.seconds).toLocaleString('en-US')} events/s)\n`,
    );
    await store.close();

    // 2. Full rebuild of the activity log.
    log('rebuilding the activity log...');
    const projection = createActivityLogProjection([mergeQueueLogMapping]);
    let lastReport = 0;
    const rebuilt = await rebuildBlueGreen({
      executor,
      store: await SqlEventStore.open(executor),
      projection,
      onProgress: (done, total) => {
        if (done - lastReport >= 200_000) {
          lastReport = done;
          log(`  ${done.toLocaleString('en-US')} / ${total?.toLocaleString('en-US')}`);
        }
      },
    });
    const records = rebuilt.records ?? 0;
    process.stdout.write(
      `rebuild: ${rebuilt.events.toLocaleString('en-US')} events -> ${records.toLocaleString('en-US')} log records in ` +
        `${rebuilt.seconds.toFixed(1)} s: ${Math.round(records / rebuilt.seconds).toLocaleString('en-US')} records/s ` +
        `(${Math.round(rebuilt.events / rebuilt.seconds).toLocaleString('en-US')} events/s)\n`,
    );
    const t = performance.now();
    // What autovacuum would do after a bulk load: statistics for the planner, visibility for index-only
    // scans. The names readers use are views now; the tables are in the generation the rebuild built.
    const generation = (await readActiveGeneration(executor, projection.name))!;
    const tables = ACTIVITY_LOG_TABLES.map(
      (table) => `${quoteIdentifier(generation.schema)}.${quoteIdentifier(table)}`,
    );
    await executor.exec(`VACUUM ANALYZE ${tables.join(', ')}`);
    const sizes = (
      await raw.query(
        `SELECT relname, pg_size_pretty(pg_total_relation_size(oid)) AS size, reltuples::bigint AS rows FROM pg_class
         WHERE relname LIKE 'sy_activity_log%' AND relkind = 'r' ORDER BY relname`,
      )
    ).rows as Array<{ relname: string; size: string; rows: string }>;
    process.stdout.write(
      `vacuum analyze: ${((performance.now() - t) / 1000).toFixed(1)} s; ${sizes.map((s) => `${s.relname} ${Number(s.rows).toLocaleString('en-US')} rows ${s.size}`).join('; ')}\n`,
    );

    // The other read models the workload feeds (the queue status above all) are built the same way
    // beforehand: left to the app, they would catch up in its process while the pages are timed.
    log('building the other read models...');
    const others = await rebuildOtherReadModels(executor, projection.name);
    process.stdout.write(`other read models: ${others.names.join(', ')} in ${others.seconds.toFixed(1)} s\n`);

    // 3. The app in its own process, timed only once every projection has reached the head.
    log('starting the app...');
    app = await startAppProcess(url, ADMIN_KEY, PORT);
    let settled = await waitForSettledProjections(app.baseUrl);
    if (settled.laggingReactors.length > 0) {
      log(
        `reactors behind (${settled.laggingReactors.map((r) => r.name).join(', ')}): marking them at the head...`,
      );
      await app.stop();
      await markReactorsAtHead(
        executor,
        settled.laggingReactors.map((r) => r.name),
      );
      app = await startAppProcess(url, ADMIN_KEY, PORT);
      settled = await waitForSettledProjections(app.baseUrl);
    }
    const base = app.baseUrl;
    const headers = { authorization: `Bearer ${ADMIN_KEY}` };
    const reactors = settled.laggingReactors.map((r) => `${r.name} ${r.behind ?? '?'} behind`).join(', ');
    process.stdout.write(
      `app: every projection at the head ${settled.seconds.toFixed(1)} s after start-up; ` +
        `reactors still catching up while timed: ${reactors || 'none'}\n`,
    );
    const client = keepAliveClient(base);
    const get = async (path: string): Promise<HttpAnswer> => {
      const answer = await client(path, headers);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
      JSON.parse(answer.body);
      return answer;
    };
    const runSql = async (statement: { sql: string; params: unknown[] }) => {
      await raw.query(statement.sql, statement.params);
    };
    const list = new ListLogs(executor);
    const aggregates = new AggregateLogs(executor);
    const logsPath = `/v1/repos/${BIG}/logs`;
    const queryOf = (params: LogQueryParameters): LogQuery => buildLogQuery(BIG, params, new Date());
    const results: ScenarioResult[] = [];
    const iterations = Number(process.env.BENCH_LOGS_ITERATIONS ?? '400');

    log('first page, no filter, beside the page peers...');
    peers = await startServerProcess({
      entry: 'bench/logs/page-peers-server.ts',
      port: PORT + 1,
      readyPath: '/ready',
      env: { ...process.env, DATABASE_URL: url, PORT: String(PORT + 1), PEER_ADMIN_KEY: ADMIN_KEY },
    });
    const peerClient = keepAliveClient(peers.baseUrl);
    const peerGet = async (path: string) => {
      const answer = await peerClient(path, headers);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
      JSON.parse(answer.body);
    };
    const [firstHttp, nestPeer, barePeer, firstSql] = await rotate(iterations, 50, () => queryOf({}), [
      () => get(logsPath),
      () => peerGet(`/nest${logsPath}`),
      () => peerGet(`/bare${logsPath}`),
      (query) => runSql(list.statement(query, 11)),
    ]);
    results.push({ label: 'first page, no filter', http: firstHttp!, sql: firstSql!, p99GoalMs: 20 });

    log('page filtered by pull_request and event_type...');
    const pulls = seeded.pullRequests.get(BIG)!;
    const thirtyDays = new Date(now.getTime() - 30 * DAY + 60_000).toISOString();
    const [prHttp, prSql] = await alternate(
      iterations,
      50,
      (i) => pulls[(i * 7919) % pulls.length]!,
      (pull) =>
        get(
          `${logsPath}?pull_request=${pull}&event_type=action.queue.checks_end&event_type=action.queue.leave&received_from=${encodeURIComponent(thirtyDays)}`,
        ),
      (pull) =>
        runSql(
          list.statement(
            queryOf({
              pull_request: [pull],
              event_type: ['action.queue.checks_end', 'action.queue.leave'],
              received_from: new Date(thirtyDays),
            }),
            11,
          ),
        ),
    );
    results.push({ label: 'first page, pull_request + event_type', http: prHttp, sql: prSql, p99GoalMs: 20 });

    log('walking to page 50...');
    let cursor: string | null = null;
    for (let page = 1; page < 50; page++) {
      const response = await get(cursor ? `${logsPath}?cursor=${cursor}` : logsPath);
      cursor = new URL(/<([^>]+)>; rel="next"/.exec(String(response.headers.link))![1]!).searchParams.get(
        'cursor',
      );
    }
    const page50 = decodeLogCursor(cursor!);
    const page50Query: LogQuery = { ...queryOf({}), window: page50.window };
    const page50Start: PageStart = page50.start;
    const [deepHttp, deepSql] = await alternate(
      iterations,
      50,
      () => null,
      () => get(`${logsPath}?cursor=${cursor}`),
      () => runSql(list.statement(page50Query, 11, page50Start)),
    );
    results.push({ label: 'page 50 through cursors', http: deepHttp, sql: deepSql });

    const runAggregateSql = (query: LogQuery) => Promise.all(aggregates.statements(query).map(runSql));
    log('aggregate over one day...');
    const [dayHttp, daySql] = await alternate(
      Math.ceil(iterations / 2),
      20,
      () => queryOf({}),
      () => get(`${logsPath}/aggregate`),
      (query) => runAggregateSql(query),
    );
    results.push({ label: 'aggregate, 1 day', http: dayHttp, sql: daySql });

    log('aggregate over 30 days...');
    const [monthHttp, monthSql] = await alternate(
      Math.ceil(iterations / 4),
      10,
      () => queryOf({ received_from: new Date(thirtyDays) }),
      () => get(`${logsPath}/aggregate?received_from=${encodeURIComponent(thirtyDays)}`),
      (query) => runAggregateSql(query),
    );
    results.push({ label: 'aggregate, 30 days', http: monthHttp, sql: monthSql, p99GoalMs: 300 });

    log('context: the 30-day aggregate without rollups...');
    const naive: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await raw.query(
        `SELECT floor(extract(epoch FROM received_at) / 43200) AS bucket, type, outcome, trigger, pull_request, count(*)
         FROM sy_activity_log WHERE repository = $1 AND received_at >= $2
         GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger), (pull_request))`,
        [BIG, thirtyDays],
      );
      naive.push(performance.now() - started);
    }

    log('context: the HTTP floor...');
    const floor = async (path: string, auth: boolean) => {
      const samples: number[] = [];
      for (let i = 0; i < 250; i++) {
        const started = performance.now();
        await client(path, auth ? headers : {});
        if (i >= 50) samples.push(performance.now() - started);
      }
      return summarize(samples);
    };
    const health = await floor('/healthz', false);
    const application = await floor('/v1/application', true);

    printScenarios(results);
    printPagePeers({ ours: firstHttp!, nest: nestPeer!, bare: barePeer!, sql: firstSql! });
    process.stdout.write(
      `\ncontext: the same client and app, HTTP floor: GET /healthz (no credential) p50 ${health.p50.toFixed(2)} ms, ` +
        `p99 ${health.p99.toFixed(2)} ms; GET /v1/application (credential lookup, no other SQL) p50 ${application.p50.toFixed(2)} ms, ` +
        `p99 ${application.p99.toFixed(2)} ms\n`,
    );
    process.stdout.write(
      `\ncontext: one GROUPING SETS statement over the log rows for the same 30 days (no rollups, no batch facet): ` +
        `${naive.map((n) => n.toFixed(0)).join(', ')} ms\n`,
    );
  } finally {
    if (peers) await peers.stop();
    if (app) await app.stop();
    await raw.end();
    await executor.close();
    // BENCH_LOGS_KEEP=1 leaves the database for a look at the plans.
    if (process.env.BENCH_LOGS_KEEP !== '1') await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:logs failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
