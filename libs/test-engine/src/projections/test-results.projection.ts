import type { RecordedEvent } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import { type ArrayElement, BinaryArray, type SqlQueryable } from '@switchyard/sql';
import type { CommitOutcome } from '../domain/health/commit-outcome';
import { HEALTH_RULES, HEALTH_SEVERITY } from '../domain/health/health-rules';
import { healthVerdict } from '../domain/health/health-verdict';
import { failureIdOf, UNKNOWN_EXCEPTION_TYPE } from '../domain/identity/failure-identity';
import { testIdOf } from '../domain/identity/test-identity';
import { executionColumnsOf } from '../domain/upload/execution-columns';
import { type TestResultsRecorded, testUploadEventTypes } from '../domain/upload/test-upload';
import { ranOnDefaultBranch } from '../domain/upload/test-results';
import {
  EXECUTIONS_TABLE,
  IDENTITIES_TABLE,
  IDENTITY_COMMITS_TABLE,
  IDENTITY_COUNTS_TABLE,
  JOB_COMMIT_TESTS_TABLE,
  TEST_ENGINE_SCHEMA,
} from './test-engine-tables';

/** Ascending failed_executions_impact puts high first, as ascending health puts broken first. */
const IMPACT_RANK = { high: 0, medium: 1, low: 2 } as const;
const NO_IMPACT_RANK = 3;

/**
 * Executions, per-commit outcomes and per-identity health, from the upload events only (a
 * filtered feed: test uploads never slow another read model, nor theirs this one). Executions are
 * keyed by (repository, trace id, span id), so a chunk sent twice, or a span repeated in two
 * chunks, counts once; only rows that were really inserted move the per-commit counters.
 */
export const testResultsProjection: Projection = {
  name: 'test_engine.results',
  version: 8,
  eventTypes: testUploadEventTypes,

  async setup(tx) {
    await tx.exec(TEST_ENGINE_SCHEMA);
  },

  async reset(tx) {
    await tx.exec(
      `DELETE FROM ${EXECUTIONS_TABLE}; DELETE FROM ${IDENTITY_COMMITS_TABLE}; DELETE FROM ${IDENTITIES_TABLE};
       DELETE FROM ${JOB_COMMIT_TESTS_TABLE}; DELETE FROM ${IDENTITY_COUNTS_TABLE};`,
    );
  },

  // The rows an event writes are its job's (identities, their commits, the job's commit notes) or
  // its own spans' (executions), but for the repository's identity count, which it only adds to
  // (last: see countNewIdentities); and an event applied again inserts no execution, so it moves
  // nothing. Uploads of different jobs are applied side by side.
  laneOf(event) {
    const { repository, run } = (event as RecordedEvent<TestResultsRecorded>).data;
    return JSON.stringify([repository, run.pipelineName, run.jobName]);
  },

  async apply(tx, events) {
    const added = new Map<string, number>();
    // Event by event: the next event's fast path reads identity rows this one's refresh wrote.
    for (const event of events) {
      if (event.type !== 'test_results.recorded') continue;
      const rejudged = await recordExecutions(tx, event as RecordedEvent<TestResultsRecorded>);
      const backfill = rejudged.filter((identity) => identity.backfill);
      if (backfill.length > 0) await keepCommitsOf(tx, backfill);
      if (rejudged.length > 0) await refreshIdentities(tx, rejudged);
      for (const identity of rejudged)
        if (identity.isNew) added.set(identity.repository, (added.get(identity.repository) ?? 0) + 1);
    }
    await countNewIdentities(tx, added);
  },

  async countRecords(q) {
    const { rows } = await q.query<{ count: string }>(
      `SELECT count(*)::text AS count FROM ${EXECUTIONS_TABLE}`,
    );
    return Number(rows[0]?.count ?? 0);
  },
};

interface TouchedIdentity {
  repository: string;
  testId: string;
  testName: string;
  pipelineName: string;
  jobName: string;
  /** Default-branch executions the event inserted for the identity (its count moves by that). */
  addedExecutions: number;
  /** A new identity that only passed: its whole history is this commit, and no counters are kept. */
  firstCommit: { outcome: CommitOutcome; firstFinishedAt: Date | string } | null;
  /** An identity that only ever passed until this event: its counters are built from its executions. */
  backfill: boolean;
  /** No row yet: refreshIdentities inserts it. */
  isNew: boolean;
}

const COLUMNS = [
  ['trace_id', 'text'],
  ['span_id', 'text'],
  ['test_id', 'uuid'],
  ['test_name', 'text'],
  ['conclusion', 'text'],
  ['finished_at', 'timestamptz'],
  ['duration_ms', 'float8'],
  ['quarantined', 'bool'],
  ['failure_id', 'uuid'],
  ['exception_type', 'text'],
  ['exception_message', 'text'],
  ['exception_stacktrace', 'text'],
  ['filepath', 'text'],
  ['function_name', 'text'],
] as const;

/** An identity row as refreshIdentities writes it, in the order of its values. */
const IDENTITY_COLUMNS = [
  ['repository', 'text'],
  ['test_id', 'uuid'],
  ['pipeline_name', 'text'],
  ['job_name', 'text'],
  ['test_name', 'text'],
  ['health_status', 'text'],
  ['health_rank', 'int2'],
  ['failed_executions_ratio', 'float8'],
  ['failed_executions_impact', 'text'],
  ['impact_rank', 'int2'],
  ['success_ratio', 'float8'],
  ['failure_ratio', 'float8'],
  ['flakiness_ratio', 'float8'],
  ['executions_count', 'int4'],
  ['last_finished_at', 'timestamptz'],
  ['commits_kept', 'bool'],
] as const;

/**
 * Every column goes as a binary array (BinaryArray), cast on the server: node-postgres would escape
 * every element into an array literal that the server then parses back. Uuids and times go as
 * their text.
 */
type ColumnType = ArrayElement | 'uuid' | 'timestamptz';

/** The element type a column's values travel as. */
const sentAs = (type: ColumnType): ArrayElement =>
  type === 'uuid' || type === 'timestamptz' ? 'text' : type;

const arrayParameter = (n: number, type: ColumnType): string =>
  sentAs(type) === type ? `$${n}::${type}[]` : `$${n}::${sentAs(type)}[]::${type}[]`;

/** One array parameter per column, from $1: the unnest arguments and the values as sent. */
function arrayParameters(
  columns: readonly (readonly [string, ColumnType])[],
  values: readonly unknown[][],
): { unnest: string; sent: unknown[] } {
  return {
    unnest: columns.map(([, type], index) => arrayParameter(index + 1, type)).join(', '),
    sent: values.map((column, index) => new BinaryArray(sentAs(columns[index]![1]), column)),
  };
}

/**
 * One statement per event: insert the new executions, note which tests the event ran for the
 * job's commit, and move the identities whose verdict cannot change. Returns the other identities
 * the event touched, which refreshIdentities judges again.
 *
 * A verdict cannot change when the identity's window held no failure and at least one pass (failed
 * ratio 0, success ratio 1) and the event brings passes and no failure: the window still has no
 * failure and a pass, so healthy with ratios 0 / 1 / 0 / 0 whatever commits it now spans. Only the
 * count and the last run move. Most uploads of a healthy suite take this path, which reads no
 * history.
 *
 * Per-commit counters are kept only for identities that ever saw anything but passes (those whose
 * verdict may need them): an identity that only ever passed is its row alone, so a healthy suite
 * writes one row per execution and one per identity, not a third. Its last run (the first finish
 * of its newest commit) still moves exactly: on a commit it has not run on yet, the commit's first
 * finish is the event's, so the last run is the later of the two; on a commit it ran on (known from
 * the job's commit notes), the commit's first finish may move, so that case is judged in full. An
 * identity whose counters are kept takes the row-only path when its commit's first finish (the
 * earlier of the stored one and the event's) is no older than the stored last run (a commit that
 * kept or lowered its first finish may have been the newest).
 *
 * That first finish is read in classified (the commit's stored row, looked up only for identities
 * whose counters are kept), so the update joins classified to the identities table alone. Joined
 * to per_commit's results as well, the planner, which takes every intermediate result for a
 * handful of rows, scanned per_commit once per identity: 20 ms of a 48 ms upload at 50,000 tests.
 */
async function recordExecutions(
  tx: SqlQueryable,
  event: RecordedEvent<TestResultsRecorded>,
): Promise<TouchedIdentity[]> {
  const { repository, run, uploadId, part } = event.data;
  const onDefaultBranch = ranOnDefaultBranch(run);
  // The event already holds one array per field: the statement takes them as they are.
  const executions = executionColumnsOf(event.data.executions);
  const { conclusion, exceptionType, exceptionMessage } = executions;
  const testIds = executions.testName.map((name) => testIdOf(repository, name));
  const failed = (index: number) => conclusion[index] === 'failed';
  const typeOf = (index: number) => exceptionType[index] ?? UNKNOWN_EXCEPTION_TYPE;
  const messageOf = (index: number) => exceptionMessage[index] ?? '';
  const columns = [
    executions.traceId,
    executions.spanId,
    testIds,
    executions.testName,
    conclusion,
    executions.finishedAt,
    executions.durationMs,
    executions.quarantined,
    testIds.map((testId, i) => (failed(i) ? failureIdOf(testId, typeOf(i), messageOf(i)) : null)),
    testIds.map((_, i) => (failed(i) ? typeOf(i) : null)),
    testIds.map((_, i) => (failed(i) ? messageOf(i) : null)),
    executions.exceptionStacktrace,
    executions.filepath,
    executions.functionName,
  ];
  const { unnest, sent } = arrayParameters(COLUMNS, columns);
  const columnNames = COLUMNS.map(([name]) => name).join(', ');
  const base = COLUMNS.length;
  const [repo, pipeline, job, commit] = [base + 1, base + 2, base + 3, base + 4].map((n) => `$${n}`);
  const identityIs = (alias: string) =>
    `${alias}.repository = ${repo} AND ${alias}.pipeline_name = ${pipeline} AND ${alias}.job_name = ${job}`;
  const { rows } = await tx.query<TouchedRow>(
    `WITH inserted AS (
       INSERT INTO ${EXECUTIONS_TABLE} (${columnNames}, repository, pipeline_name, job_name, commit_key, commit_sha,
         on_default_branch, framework, framework_version, language, run_url)
       SELECT *, ${repo}, ${pipeline}, ${job}, ${commit}, $${base + 5}, $${base + 6}::boolean,
         $${base + 7}, $${base + 8}, $${base + 9}, $${base + 10}
       FROM unnest(${unnest}) AS incoming(${columnNames})
       ON CONFLICT (repository, trace_id, span_id) DO NOTHING
       RETURNING test_id, test_name, conclusion, finished_at
     ), touched AS (
       SELECT test_id, min(test_name) AS test_name, count(*)::int AS added, min(finished_at) AS first_finished_at,
         count(*) FILTER (WHERE conclusion = 'passed')::int AS passed,
         count(*) FILTER (WHERE conclusion = 'failed')::int AS failed,
         count(*) FILTER (WHERE conclusion = 'skipped')::int AS skipped
       FROM inserted WHERE $${base + 6}::boolean GROUP BY test_id
     ), seen AS (
       SELECT unnest(notes.test_ids) AS test_id FROM ${JOB_COMMIT_TESTS_TABLE} notes
       WHERE ${identityIs('notes')} AND notes.commit_key = ${commit}
     ), noted AS (
       INSERT INTO ${JOB_COMMIT_TESTS_TABLE} (repository, pipeline_name, job_name, commit_key, upload_id, part, test_ids)
       SELECT ${repo}, ${pipeline}, ${job}, ${commit}, $${base + 11}, $${base + 12}, array_agg(test_id) FROM touched
       HAVING count(*) > 0
       ON CONFLICT DO NOTHING
     ), classified AS (
       SELECT touched.*, identity.test_id IS NOT NULL AS known, coalesce(identity.commits_kept, false) AS commits_kept,
         touched.failed = 0 AND touched.passed > 0 AS only_passed,
         identity.failed_executions_ratio = 0 AND identity.success_ratio = 1 AS window_only_passed,
         touched.test_id IN (SELECT test_id FROM seen) AS ran_on_commit,
         least(kept.first_finished_at, touched.first_finished_at) AS commit_first_finished_at
       FROM touched
       LEFT JOIN ${IDENTITIES_TABLE} identity ON ${identityIs('identity')} AND identity.test_id = touched.test_id
       LEFT JOIN LATERAL (
         SELECT c.first_finished_at FROM ${IDENTITY_COMMITS_TABLE} c
         WHERE identity.commits_kept AND ${identityIs('c')} AND c.test_id = touched.test_id AND c.commit_key = ${commit}
         LIMIT 1
       ) kept ON true
     ), per_commit AS (
       INSERT INTO ${IDENTITY_COMMITS_TABLE} AS stored
         (repository, test_id, pipeline_name, job_name, commit_key, first_finished_at, passed, failed, skipped)
       SELECT ${repo}, test_id, ${pipeline}, ${job}, ${commit}, first_finished_at, passed, failed, skipped
       FROM classified WHERE commits_kept OR (NOT known AND NOT only_passed)
       ON CONFLICT (repository, test_id, pipeline_name, job_name, commit_key) DO UPDATE
         SET passed = stored.passed + EXCLUDED.passed, failed = stored.failed + EXCLUDED.failed,
             skipped = stored.skipped + EXCLUDED.skipped,
             first_finished_at = least(stored.first_finished_at, EXCLUDED.first_finished_at)
     ), unchanged_verdict AS (
       UPDATE ${IDENTITIES_TABLE} AS identity
       SET executions_count = identity.executions_count + classified.added,
           last_finished_at = CASE WHEN classified.commits_kept THEN classified.commit_first_finished_at
             ELSE greatest(identity.last_finished_at, classified.first_finished_at) END
       FROM classified
       WHERE ${identityIs('identity')} AND identity.test_id = classified.test_id
         AND classified.known AND classified.only_passed AND classified.window_only_passed
         AND CASE WHEN classified.commits_kept THEN classified.commit_first_finished_at >= identity.last_finished_at
           ELSE NOT classified.ran_on_commit END
       RETURNING identity.test_id
     )
     SELECT test_id::text, test_name, added, known, commits_kept, passed, failed, skipped, first_finished_at
     FROM classified WHERE test_id NOT IN (SELECT test_id FROM unchanged_verdict)`,
    [
      ...sent,
      repository,
      run.pipelineName,
      run.jobName,
      run.commitSha ?? `upload:${uploadId}`,
      run.commitSha,
      onDefaultBranch,
      run.framework,
      run.frameworkVersion,
      run.language,
      run.runUrl,
      uploadId,
      part,
    ],
  );
  return rows.map((row) => ({
    repository,
    testId: row.test_id,
    testName: row.test_name,
    pipelineName: run.pipelineName,
    jobName: run.jobName,
    addedExecutions: row.added,
    // A new identity that only passed is judged from this event alone and keeps no counters.
    firstCommit:
      !row.known && row.failed === 0 && row.passed > 0
        ? {
            outcome: { commitSha: '', passed: row.passed, failed: row.failed, skipped: row.skipped },
            firstFinishedAt: row.first_finished_at,
          }
        : null,
    backfill: row.known && !row.commits_kept,
    isNew: !row.known,
  }));
}

/**
 * Each repository's identity count moves by the identities the events added. Last in the
 * transaction and in the order of the repositories (the statement's ORDER BY): lanes that share
 * repositories lock their count rows in the same order, and only until they commit, so they never
 * deadlock.
 */
async function countNewIdentities(tx: SqlQueryable, added: ReadonlyMap<string, number>): Promise<void> {
  if (added.size === 0) return;
  const repositories = [...added.keys()];
  await tx.query(
    `INSERT INTO ${IDENTITY_COUNTS_TABLE} AS counted (repository, identities)
     SELECT * FROM unnest($1::text[], $2::int[]) ORDER BY 1
     ON CONFLICT (repository) DO UPDATE SET identities = counted.identities + EXCLUDED.identities`,
    [repositories, repositories.map((repository) => added.get(repository))],
  );
}

interface TouchedRow {
  test_id: string;
  test_name: string;
  added: number;
  known: boolean;
  commits_kept: boolean;
  passed: number;
  failed: number;
  skipped: number;
  first_finished_at: Date | string;
}

/**
 * The counters of identities that only ever passed until this event, from their executions (the
 * event's included): from now on their verdict needs them, so they are kept like the others'.
 */
async function keepCommitsOf(tx: SqlQueryable, keys: readonly TouchedIdentity[]): Promise<void> {
  const { repository, pipelineName, jobName } = keys[0]!;
  await tx.query(
    `INSERT INTO ${IDENTITY_COMMITS_TABLE} AS stored
       (repository, test_id, pipeline_name, job_name, commit_key, first_finished_at, passed, failed, skipped)
     SELECT repository, test_id, pipeline_name, job_name, commit_key, min(finished_at),
       count(*) FILTER (WHERE conclusion = 'passed'), count(*) FILTER (WHERE conclusion = 'failed'),
       count(*) FILTER (WHERE conclusion = 'skipped')
     FROM ${EXECUTIONS_TABLE}
     WHERE repository = $1 AND test_id = ANY($2::uuid[]) AND pipeline_name = $3 AND job_name = $4 AND on_default_branch
     GROUP BY repository, test_id, pipeline_name, job_name, commit_key
     ON CONFLICT (repository, test_id, pipeline_name, job_name, commit_key) DO UPDATE
       SET passed = EXCLUDED.passed, failed = EXCLUDED.failed, skipped = EXCLUDED.skipped,
           first_finished_at = EXCLUDED.first_finished_at`,
    [repository, keys.map((key) => key.testId), pipelineName, jobName],
  );
}

/**
 * Recomputes the verdict of every identity the batch touched from its last commits only (the
 * `_recent` index, newest first, LIMIT the window), so the work per upload stays flat however long
 * an identity's history grows; its execution count moves by what the batch inserted. A new
 * identity that only passed is judged from its one commit, without reading.
 */
async function refreshIdentities(tx: SqlQueryable, touched: TouchedIdentity[]): Promise<void> {
  const kept = touched.filter((identity) => identity.firstCommit === null);
  const { rows } = await tx.query<{
    identity: number;
    commit_key: string;
    passed: number;
    failed: number;
    skipped: number;
    first_finished_at: Date | string;
  }>(
    `SELECT t.identity::int AS identity, c.commit_key, c.passed, c.failed, c.skipped, c.first_finished_at
     FROM unnest($1::text[], $2::uuid[], $3::text[], $4::text[]) WITH ORDINALITY
       AS t(repository, test_id, pipeline_name, job_name, identity)
     CROSS JOIN LATERAL (
       SELECT c.commit_key, c.passed, c.failed, c.skipped, c.first_finished_at
       FROM ${IDENTITY_COMMITS_TABLE} c
       WHERE c.repository = t.repository AND c.test_id = t.test_id
         AND c.pipeline_name = t.pipeline_name AND c.job_name = t.job_name
       ORDER BY c.first_finished_at DESC, c.commit_key DESC
       LIMIT $5
     ) c`,
    [
      kept.map((k) => k.repository),
      kept.map((k) => k.testId),
      kept.map((k) => k.pipelineName),
      kept.map((k) => k.jobName),
      HEALTH_RULES.windowCommits,
    ],
  );
  // Rows come newest first per identity; the verdict reads commits oldest first.
  const histories = new Map<TouchedIdentity, { lastFinishedAt: Date | string; commits: CommitOutcome[] }>();
  for (const identity of touched)
    if (identity.firstCommit)
      histories.set(identity, {
        lastFinishedAt: identity.firstCommit.firstFinishedAt,
        commits: [identity.firstCommit.outcome],
      });
  for (const row of rows) {
    const key = kept[row.identity - 1]!;
    const entry = histories.get(key) ?? { lastFinishedAt: row.first_finished_at, commits: [] };
    entry.commits.push({
      commitSha: row.commit_key,
      passed: row.passed,
      failed: row.failed,
      skipped: row.skipped,
    });
    histories.set(key, entry);
  }
  const out: unknown[][] = IDENTITY_COLUMNS.map(() => []);
  for (const [key, { lastFinishedAt, commits }] of histories) {
    const verdict = healthVerdict(commits.reverse());
    [
      key.repository,
      key.testId,
      key.pipelineName,
      key.jobName,
      key.testName,
      verdict.status,
      HEALTH_SEVERITY[verdict.status],
      verdict.failedExecutionsRatio,
      verdict.failedExecutionsImpact,
      verdict.failedExecutionsImpact === null ? NO_IMPACT_RANK : IMPACT_RANK[verdict.failedExecutionsImpact],
      verdict.successRatio,
      verdict.failureRatio,
      verdict.flakinessRatio,
      key.addedExecutions,
      new Date(lastFinishedAt).toISOString(),
      key.firstCommit === null,
    ].forEach((value, index) => out[index]!.push(value));
  }
  const { unnest, sent } = arrayParameters(IDENTITY_COLUMNS, out);
  await tx.query(
    `INSERT INTO ${IDENTITIES_TABLE} (${IDENTITY_COLUMNS.map(([name]) => name).join(', ')})
     SELECT * FROM unnest(${unnest})
     ON CONFLICT (repository, test_id, pipeline_name, job_name) DO UPDATE SET
       health_status = EXCLUDED.health_status, health_rank = EXCLUDED.health_rank,
       failed_executions_ratio = EXCLUDED.failed_executions_ratio,
       failed_executions_impact = EXCLUDED.failed_executions_impact, impact_rank = EXCLUDED.impact_rank,
       success_ratio = EXCLUDED.success_ratio, failure_ratio = EXCLUDED.failure_ratio,
       flakiness_ratio = EXCLUDED.flakiness_ratio,
       executions_count = ${IDENTITIES_TABLE}.executions_count + EXCLUDED.executions_count,
       last_finished_at = EXCLUDED.last_finished_at, commits_kept = EXCLUDED.commits_kept`,
    sent,
  );
}
