import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { type Conclusion, HEALTH_RULES } from '../domain/health/health-rules';
import { healthVerdict } from '../domain/health/health-verdict';
import {
  readCurrentHealthOnDefaultBranch,
  readIdentityHealthOnDefaultBranch,
} from '../queries/current-health';
import { execution, recorded, runOn } from '../testing/test-results-builder';
import { testIdOf } from '../domain/identity/test-identity';
import { readTestDetails } from '../queries/test-details';
import {
  EXECUTIONS_TABLE,
  IDENTITIES_TABLE,
  IDENTITY_COMMITS_TABLE,
  IDENTITY_COUNTS_TABLE,
  JOB_COMMIT_TESTS_TABLE,
} from './test-engine-tables';
import { testResultsProjection } from './test-results.projection';

const REPO = 'acme/app';

describeEachDatabase('test results projection', (db) => {
  let sql: SqlExecutor;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction((tx) => testResultsProjection.setup(tx));
  });
  afterAll(() => sql.close());
  beforeEach(() => sql.transaction((tx) => testResultsProjection.reset(tx)));
  // Whatever a case applied, each repository's kept identity count is its number of identity rows.
  afterEach(async () => {
    const { rows } = await sql.query<{ repository: string; rows: number; counted: number }>(
      `SELECT repository, coalesce(i.n, 0) AS rows, coalesce(c.identities, 0) AS counted
       FROM (SELECT repository, count(*)::int AS n FROM ${IDENTITIES_TABLE} GROUP BY repository) i
       FULL JOIN ${IDENTITY_COUNTS_TABLE} c USING (repository)`,
    );
    expect(rows.map(({ repository, counted }) => ({ repository, counted }))).toEqual(
      rows.map(({ repository, rows: n }) => ({ repository, counted: n })),
    );
  });

  const apply = (...events: ReturnType<typeof recorded>[]) =>
    sql.transaction((tx) => testResultsProjection.apply(tx, events));

  it('keeps the counters every upload moves out of every index, so their updates are heap-only', async () => {
    const { rows } = await sql.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1`,
      [IDENTITIES_TABLE],
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const { indexdef } of rows) expect(indexdef).not.toMatch(/executions_count|last_finished_at/);
  });

  it('marks a test flaky when one commit, pipeline and job saw it fail and pass, and a steady failure broken', async () => {
    const first = recorded(REPO, runOn({ commitSha: 'c1' }), [
      execution('t.flaky', 'failed', '2026-05-01T10:00:00Z'),
      execution('t.broken', 'passed', '2026-05-01T10:00:00Z'),
      execution('t.fine', 'passed', '2026-05-01T10:00:00Z'),
    ]);
    const retry = recorded(REPO, runOn({ commitSha: 'c1' }), [
      execution('t.flaky', 'passed', '2026-05-01T10:05:00Z'),
    ]);
    const second = recorded(REPO, runOn({ commitSha: 'c2' }), [
      execution('t.broken', 'failed', '2026-05-02T10:00:00Z'),
      execution('t.fine', 'passed', '2026-05-02T10:00:00Z'),
    ]);
    const third = recorded(REPO, runOn({ commitSha: 'c3' }), [
      execution('t.broken', 'failed', '2026-05-03T10:00:00Z'),
    ]);
    await apply(first, retry);
    await apply(second, third);

    const health = await readCurrentHealthOnDefaultBranch(sql, REPO, [
      't.flaky',
      't.broken',
      't.fine',
      't.never',
    ]);
    expect([...health.entries()].map(([name, h]) => [name, h.healthStatus])).toEqual([
      ['t.flaky', 'flaky'],
      ['t.broken', 'broken'],
      ['t.fine', 'healthy'],
    ]);
    const { rows } = await sql.query<{
      test_name: string;
      failed_executions_impact: string | null;
      executions_count: number;
    }>(
      `SELECT test_name, failed_executions_impact, executions_count FROM ${IDENTITIES_TABLE} ORDER BY test_name`,
    );
    expect(rows).toEqual([
      { test_name: 't.broken', failed_executions_impact: 'high', executions_count: 3 },
      { test_name: 't.fine', failed_executions_impact: null, executions_count: 2 },
      { test_name: 't.flaky', failed_executions_impact: 'high', executions_count: 2 },
    ]);
  });

  it('counts a span sent twice (a re-sent chunk) once, and leaves pull-request runs out of health', async () => {
    const once = execution('t.a', 'failed', '2026-05-01T10:00:00Z');
    await apply(recorded(REPO, runOn({ commitSha: 'c1' }), [once]));
    await apply(recorded(REPO, runOn({ commitSha: 'c1' }), [once]));
    await apply(
      recorded(REPO, runOn({ commitSha: 'c1', headRef: 'feature', baseRef: 'main' }), [
        execution('t.a', 'passed', '2026-05-01T10:01:00Z'),
      ]),
    );
    const { rows } = await sql.query(`SELECT count(*)::int AS n FROM ${EXECUTIONS_TABLE}`);
    expect(rows[0]).toEqual({ n: 2 });
    const health = await readIdentityHealthOnDefaultBranch(sql, REPO, ['t.a']);
    // A single failed commit is not yet broken (docs/test-health.md), and the PR pass is no flake.
    expect(health.get('t.a')).toEqual([{ pipelineName: 'ci', jobName: 'tests', health: 'healthy' }]);
  });

  it('changes nothing when it applies an event again, and puts uploads of different jobs in different lanes', async () => {
    // Lanes commit before the checkpoint moves, so after a crash their events are applied again.
    const first = recorded(REPO, runOn({ commitSha: 'c1' }), [
      execution('t.a', 'failed', '2026-05-01T10:00:00Z'),
      execution('t.b', 'passed', '2026-05-01T10:00:00Z'),
    ]);
    const otherJob = recorded(REPO, runOn({ commitSha: 'c2', jobName: 'lint' }), [
      execution('t.a', 'passed', '2026-05-02T10:00:00Z'),
    ]);
    const second = recorded(REPO, runOn({ commitSha: 'c2' }), [
      execution('t.a', 'passed', '2026-05-02T10:00:00Z'),
      execution('t.c', 'passed', '2026-05-02T10:00:00Z'),
    ]);
    await apply(first, otherJob, second);
    const tables = [
      EXECUTIONS_TABLE,
      IDENTITY_COMMITS_TABLE,
      IDENTITIES_TABLE,
      IDENTITY_COUNTS_TABLE,
      JOB_COMMIT_TESTS_TABLE,
    ];
    const snapshot = () =>
      Promise.all(
        tables.map(async (table) => {
          const { rows } = await sql.query<{ row: string }>(
            `SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`,
          );
          return rows.map((row) => row.row);
        }),
      );
    const applied = await snapshot();
    expect(applied[2]).toHaveLength(4);

    await apply(second);
    await apply(first, otherJob);
    expect(await snapshot()).toEqual(applied);

    const laneOf = testResultsProjection.laneOf!;
    expect(laneOf(first)).toBe(laneOf(second));
    expect(laneOf(otherJob)).not.toBe(laneOf(first));
    expect(
      laneOf(
        recorded('acme/other', runOn({ commitSha: 'c1' }), [
          execution('t.a', 'passed', '2026-05-01T10:00:00Z'),
        ]),
      ),
    ).not.toBe(laneOf(first));
  });

  it('keeps every identity equal to the verdict over its whole history, whichever way its row was moved', async () => {
    // Over more commits than the window: early failures age out, then mostly passes (the row-only
    // path); retries of an older commit finishing before its first executions (its first finish
    // moves back); a test skipped after its only pass, which leaves the window; one broken at the end.
    // Each case sits where a wrong shortcut would show in the final rows (no full refresh after it).
    const tests = ['t.0', 't.1', 't.2', 't.broken', 't.skipped'];
    const conclusionOf = (test: string, upload: number): Conclusion => {
      if (test === 't.skipped') return upload === 0 ? 'passed' : 'skipped';
      if (test === 't.broken' && upload > 60) return 'failed';
      return upload < 12 && (upload + test.length) % 5 === 0 ? 'failed' : 'passed';
    };
    const history: { test: string; commit: string; conclusion: Conclusion; finishedAt: string }[] = [];
    for (let upload = 0; upload < 70; upload++) {
      const retry = upload % 7 === 6 && upload < 50;
      const commit = `c${retry ? upload - (upload % 2 === 0 ? 1 : 4) : upload}`;
      const finishedAt = new Date(Date.UTC(2026, 4, 1, 0, upload * 10 - (retry ? 45 : 0))).toISOString();
      const executions = tests.map((test) => {
        const conclusion = conclusionOf(test, upload);
        history.push({ test, commit, conclusion, finishedAt });
        return execution(test, conclusion, finishedAt);
      });
      await apply(recorded(REPO, runOn({ commitSha: commit }), executions));
    }

    // Last, one test retried on an older commit, earlier than that commit's first executions.
    const lateRetry = new Date(Date.UTC(2026, 4, 1, 0, 600 - 45)).toISOString();
    history.push({ test: 't.0', commit: 'c60', conclusion: 'passed', finishedAt: lateRetry });
    await apply(recorded(REPO, runOn({ commitSha: 'c60' }), [execution('t.0', 'passed', lateRetry)]));

    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT test_name, health_status, failed_executions_ratio, success_ratio, failure_ratio, flakiness_ratio,
         executions_count, last_finished_at FROM ${IDENTITIES_TABLE} ORDER BY test_name`,
    );
    expect(
      rows.map((row) => ({
        ...row,
        last_finished_at: new Date(row.last_finished_at as string).toISOString(),
      })),
    ).toEqual(
      tests.map((test) =>
        expectedIdentity(
          test,
          history.filter((entry) => entry.test === test),
        ),
      ),
    );
  });

  it('keeps no per-commit counters for a test that only passed, and the same verdicts, last runs and details once it fails', async () => {
    // t.late passes on new commits, one of them older than its newest (its last run stays), with
    // no per-commit counters; then it fails on a retry of an older commit and passes again: its
    // counters are built from its executions when it first fails. t.steady only passes, but runs
    // again on commits it ran on (an older commit retried after the newest, a second part of one
    // upload): its counters are built then, as the first finish of such a commit may move. Every
    // row equals the verdict over its whole history.
    const tests = ['t.steady', 't.late'];
    const history: { test: string; commit: string; conclusion: Conclusion; finishedAt: string }[] = [];
    const at = (minute: number) => new Date(Date.UTC(2026, 4, 1, 0, minute)).toISOString();
    const upload = async (
      commit: string,
      minute: number,
      conclusions: Record<string, Conclusion>,
      part = 0,
    ) => {
      const executions = Object.entries(conclusions).map(([test, conclusion]) => {
        history.push({ test, commit, conclusion, finishedAt: at(minute) });
        return execution(test, conclusion, at(minute));
      });
      const event = recorded(REPO, runOn({ commitSha: commit }), executions);
      await apply({ ...event, data: { ...event.data, part } });
      return event.data.uploadId;
    };
    const rowsNow = () =>
      sql.query<Record<string, unknown>>(
        `SELECT test_name, health_status, failed_executions_ratio, success_ratio, failure_ratio, flakiness_ratio,
           executions_count, last_finished_at FROM ${IDENTITIES_TABLE} ORDER BY test_name DESC`,
      );
    const expectRowsFromHistory = async () =>
      expect(
        (await rowsNow()).rows.map((row) => ({
          ...row,
          last_finished_at: new Date(row.last_finished_at as string).toISOString(),
        })),
      ).toEqual(
        tests.map((test) =>
          expectedIdentity(
            test,
            history.filter((entry) => entry.test === test),
          ),
        ),
      );
    const kept = async () =>
      (
        await sql.query<{ test_name: string; commits_kept: boolean; commits: number }>(
          `SELECT i.test_name, i.commits_kept, (SELECT count(*)::int FROM ${IDENTITY_COMMITS_TABLE} c
             WHERE c.test_id = i.test_id AND c.pipeline_name = i.pipeline_name AND c.job_name = i.job_name) AS commits
           FROM ${IDENTITIES_TABLE} i ORDER BY i.test_name DESC`,
        )
      ).rows;

    await upload('c1', 10, { 't.steady': 'passed', 't.late': 'passed' });
    await upload('c2', 20, { 't.steady': 'passed', 't.late': 'passed' });
    await upload('c1', 30, { 't.steady': 'passed' }); // an older commit retried after the newest
    await upload('c0', 5, { 't.late': 'passed' }); // a new commit, older than the newest
    await expectRowsFromHistory();
    const uploadId = await upload('c3', 40, { 't.steady': 'passed', 't.late': 'passed' });
    // A second part of the same upload, on the same commit: the test already ran on c3.
    const part = recorded(REPO, runOn({ commitSha: 'c3' }), [execution('t.steady', 'passed', at(35))]);
    history.push({ test: 't.steady', commit: 'c3', conclusion: 'passed', finishedAt: at(35) });
    await apply({ ...part, data: { ...part.data, uploadId, part: 1 } });
    await expectRowsFromHistory();
    expect(await kept()).toEqual([
      { test_name: 't.steady', commits_kept: true, commits: 3 },
      { test_name: 't.late', commits_kept: false, commits: 0 },
    ]);

    await upload('c4', 50, { 't.steady': 'passed', 't.late': 'passed' });
    await upload('c2', 60, { 't.late': 'failed' }); // fails on a retry of an older commit
    await expectRowsFromHistory();
    await upload('c5', 70, { 't.steady': 'passed', 't.late': 'passed' });
    await upload('c6', 80, { 't.late': 'failed' });
    await upload('c7', 90, { 't.late': 'failed' });
    await expectRowsFromHistory();
    expect(await kept()).toEqual([
      { test_name: 't.steady', commits_kept: true, commits: 5 },
      { test_name: 't.late', commits_kept: true, commits: 8 },
    ]);

    // What the details read per commit (from the executions) is what the counters hold.
    for (const test of tests) {
      const details = await readTestDetails(sql, { repository: REPO, testId: testIdOf(REPO, test) });
      const { rows } = await sql.query<{ passed: number; failed: number; flaky: number; commits: number }>(
        `SELECT sum(passed)::int AS passed, sum(failed)::int AS failed,
           count(*) FILTER (WHERE passed > 0 AND failed > 0)::int AS flaky,
           count(*) FILTER (WHERE passed + failed > 0)::int AS commits
         FROM ${IDENTITY_COMMITS_TABLE} WHERE test_id = $1`,
        [testIdOf(REPO, test)],
      );
      const counters = rows[0]!;
      expect(details).toMatchObject({
        failureRatio: counters.failed / (counters.passed + counters.failed),
        flakinessRatio: counters.flaky / counters.commits,
      });
    }
  });

  it('judges a new test that only passed from its first commit, keeping no counters', async () => {
    await apply(
      recorded(REPO, runOn({ commitSha: 'c1' }), [
        execution('t.new', 'passed', '2026-05-01T10:00:00Z'),
        execution('t.new', 'passed', '2026-05-01T09:59:00Z'),
        execution('t.new', 'skipped', '2026-05-01T09:58:00Z'),
      ]),
    );
    const { rows } = await sql.query<Record<string, unknown>>(
      `SELECT test_name, health_status, failed_executions_ratio, success_ratio, failure_ratio, flakiness_ratio,
         executions_count, last_finished_at, commits_kept FROM ${IDENTITIES_TABLE}`,
    );
    expect(
      rows.map((row) => ({
        ...row,
        last_finished_at: new Date(row.last_finished_at as string).toISOString(),
      })),
    ).toEqual([
      {
        ...expectedIdentity('t.new', [
          { commit: 'c1', conclusion: 'passed', finishedAt: '2026-05-01T10:00:00.000Z' },
          { commit: 'c1', conclusion: 'passed', finishedAt: '2026-05-01T09:59:00.000Z' },
          { commit: 'c1', conclusion: 'skipped', finishedAt: '2026-05-01T09:58:00.000Z' },
        ]),
        commits_kept: false,
      },
    ]);
  });

  it('projects an event recorded before the columnar form (one object per execution) the same way', async () => {
    const executions = [
      execution('t.a', 'failed', '2026-05-01T10:00:00Z'),
      execution('t.b', 'passed', '2026-05-01T10:00:00Z'),
    ];
    const legacy = recorded(REPO, runOn({ commitSha: 'c1' }), executions);
    await apply({ ...legacy, data: { ...legacy.data, executions } });
    const read = (table: string, order: string) => sql.query(`SELECT * FROM ${table} ORDER BY ${order}`);
    const fromRows = [await read(EXECUTIONS_TABLE, 'span_id'), await read(IDENTITIES_TABLE, 'test_name')];
    await sql.transaction((tx) => testResultsProjection.reset(tx));
    await apply(legacy);
    expect([await read(EXECUTIONS_TABLE, 'span_id'), await read(IDENTITIES_TABLE, 'test_name')]).toEqual(
      fromRows,
    );
  });
});

/** What the identity row must hold: the verdict over its newest commits, the count over all. */
function expectedIdentity(
  test: string,
  history: { commit: string; conclusion: Conclusion; finishedAt: string }[],
): Record<string, unknown> {
  const commits = new Map<
    string,
    { commitSha: string; passed: number; failed: number; skipped: number; first: string }
  >();
  for (const { commit, conclusion, finishedAt } of history) {
    const outcome = commits.get(commit) ?? {
      commitSha: commit,
      passed: 0,
      failed: 0,
      skipped: 0,
      first: finishedAt,
    };
    outcome[conclusion]++;
    if (finishedAt < outcome.first) outcome.first = finishedAt;
    commits.set(commit, outcome);
  }
  const newestFirst = [...commits.values()].sort(
    (a, b) => b.first.localeCompare(a.first) || b.commitSha.localeCompare(a.commitSha),
  );
  const verdict = healthVerdict(newestFirst.slice(0, HEALTH_RULES.windowCommits).reverse());
  return {
    test_name: test,
    health_status: verdict.status,
    failed_executions_ratio: verdict.failedExecutionsRatio,
    success_ratio: verdict.successRatio,
    failure_ratio: verdict.failureRatio,
    flakiness_ratio: verdict.flakinessRatio,
    executions_count: history.length,
    last_finished_at: newestFirst[0]!.first,
  };
}
