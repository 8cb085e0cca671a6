import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import {
  readCurrentHealthOnDefaultBranch,
  readIdentityHealthOnDefaultBranch,
} from '../queries/current-health';
import { execution, recorded, runOn } from '../testing/test-results-builder';
import { EXECUTIONS_TABLE, IDENTITIES_TABLE } from './test-engine-tables';
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

  const apply = (...events: ReturnType<typeof recorded>[]) =>
    sql.transaction((tx) => testResultsProjection.apply(tx, events));

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
});
