import { forEachConcurrently } from '@switchyard/kernel';
import { EXECUTIONS_TABLE } from '@switchyard/test-engine';
import { createFloorTables, ingestAtTheFloor } from './event-sourced-floor';
import type { UploadedSpan } from './otlp-upload-body';
import { childPids, meterCpu, meterIdle } from './process-cpu';
import { createRawTable, insertRaw, RAW_TABLE, type RawDatabase, rawRowsOf } from './raw-insert';

export interface BenchUpload {
  sha: string;
  job: string;
  body: Buffer;
  spans: UploadedSpan[];
}

/** One round's three sides, each timed alone: executions/s and CPU seconds. */
export interface RoundFigures {
  /** idle: the machine's share of CPU left unused while ours ran (null without /proc). */
  ours: { rate: number; appCpu: number; databaseCpu: number; idle: number | null };
  raw: { rate: number; cpu: number };
  floor: { rate: number; cpu: number };
}

export interface IngestionRounds {
  db: RawDatabase;
  /** Whether the app writes to the server PostgreSQL the raw side also writes to (its rows are checked). */
  sharedServer: boolean;
  uploads: readonly BenchUpload[];
  concurrency: number;
  /** POSTs an upload to the app for a repository of the account (`bench`, `bench-2`, …). */
  send(repository: string, body: Buffer): Promise<void>;
}

const RAW_WARM_UP_TABLE = 'bench_raw_warm_up';

/** The repository round `round` (from 0) uploads into: the first is the one searched afterwards. */
export const roundRepository = (round: number) => (round === 0 ? 'bench' : `bench-${round + 1}`);

/**
 * The raw insert and the event-sourced floor warmed up with the same rows, in tables of their own,
 * as the app is warmed up before the rounds; then the raw table the rounds share.
 */
export async function warmUpBaselines({ db, uploads }: IngestionRounds): Promise<void> {
  await createRawTable(db, RAW_WARM_UP_TABLE);
  const warmUpRows = uploads.map((upload) =>
    rawRowsOf(upload.spans, { ...upload, repository: 'acme/warmup' }),
  );
  await forEachConcurrently(warmUpRows, 1, (rows) => insertRaw(db, rows, RAW_WARM_UP_TABLE));
  await createFloorTables(db);
  await forEachConcurrently(uploads, 1, (upload) => atTheFloor(db, upload));
  await createRawTable(db);
}

/**
 * One round: ours, then the raw insert of the same rows, then the floor, each alone on the
 * machine. Ours uploads into a repository of its own, and the raw insert writes that
 * repository's rows into the table every round shares, so both sides' tables grow alike.
 */
export async function ingestionRound(setup: IngestionRounds, round: number): Promise<RoundFigures> {
  const { db, uploads, concurrency } = setup;
  const executions = uploads.reduce((total, upload) => total + upload.spans.length, 0);
  const repository = roundRepository(round);

  // Ours: the clock stops when the last upload is answered, and each answer waits until the
  // test read models include it (read-your-writes), so the projection's catching up is inside.
  const appCpu = await meterCpu(async () => childPids());
  const appDatabaseCpu = await meterCpu(() => db.otherBackendPids());
  const idle = meterIdle();
  const started = performance.now();
  await forEachConcurrently(uploads, concurrency, (upload) => setup.send(repository, upload.body));
  const oursRate = executions / ((performance.now() - started) / 1000);
  const ours = { rate: oursRate, idle: idle(), appCpu: await appCpu(), databaseCpu: await appDatabaseCpu() };
  // Read-your-writes gives up after a bounded wait and answers anyway: make sure it did not.
  if (setup.sharedServer) await expectProjected(db, `acme/${repository}`, executions);

  // Raw: the same rows, one INSERT … SELECT FROM unnest per upload, into a table shaped and
  // indexed like ours, from this process (its driver's CPU counts on this side).
  const rows = uploads.map((upload) =>
    rawRowsOf(upload.spans, { ...upload, repository: `acme/${repository}` }),
  );
  const raw = await timed(
    db,
    () => forEachConcurrently(rows, 1, (upload) => insertRaw(db, upload)),
    executions,
  );
  if (setup.sharedServer) await expectSameRows(db, `acme/${repository}`, executions);

  // The event-sourced floor: the same uploads decoded, stored as events, read back and inserted,
  // and nothing else (event-sourced-floor.ts); what 0.5× of the raw insert leaves for the rest.
  await createFloorTables(db);
  const floor = await timed(
    db,
    () => forEachConcurrently(uploads, 1, (upload) => atTheFloor(db, upload)),
    executions,
  );
  return { ours, raw, floor };
}

const atTheFloor = (db: RawDatabase, upload: BenchUpload) =>
  ingestAtTheFloor(db, upload.body, `${upload.sha}-${upload.job}`);

/** A side run from this process: its rate, and its CPU here and in its own server backend. */
async function timed(
  db: RawDatabase,
  run: () => Promise<void>,
  executions: number,
): Promise<{ rate: number; cpu: number }> {
  const serverCpu = await meterCpu(() => db.ownBackendPids());
  const clientCpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const rate = executions / ((performance.now() - started) / 1000);
  const { user, system } = process.cpuUsage(clientCpu);
  return { rate, cpu: (await serverCpu()) + (user + system) / 1e6 };
}

/** Every execution of the round's uploads is in the read model once the last answer came. */
async function expectProjected(db: RawDatabase, repository: string, executions: number): Promise<void> {
  const { rows } = (await db.query(
    `SELECT count(*)::int AS n FROM ${EXECUTIONS_TABLE} WHERE repository = $1`,
    [repository],
  )) as { rows: { n: number }[] };
  if (rows[0]!.n !== executions)
    throw new Error(
      `only ${rows[0]!.n} of ${executions} executions were projected when the last upload was answered`,
    );
}

/** The raw insert stored what ours stored, column for column, no more and no less. */
async function expectSameRows(db: RawDatabase, repository: string, executions: number): Promise<void> {
  const columns = [
    'test_id',
    'test_name',
    'pipeline_name',
    'job_name',
    'commit_key',
    'commit_sha',
    'on_default_branch',
    'conclusion',
    'finished_at',
    'duration_ms',
    'quarantined',
    'failure_id',
    'exception_type',
    'exception_message',
    'exception_stacktrace',
    'filepath',
    'function_name',
    'framework',
  ];
  const { rows } = (await db.query(
    `SELECT count(*)::int AS n FROM ${EXECUTIONS_TABLE} ours JOIN ${RAW_TABLE} raw USING (repository, trace_id, span_id)
     WHERE ours.repository = $1 AND ${columns.map((c) => `ours.${c} IS NOT DISTINCT FROM raw.${c}`).join(' AND ')}`,
    [repository],
  )) as { rows: { n: number }[] };
  if (rows[0]!.n !== executions)
    throw new Error(`the raw insert stored ${rows[0]!.n} of ${executions} rows exactly as ours did`);
}
