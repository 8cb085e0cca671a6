import { startTestApp, type TestApp } from './harness';
import { SandboxTeam } from './merge-queue-sandbox';
import { uniqueRepository } from './unique-repository';

interface StatisticsJson {
  branch: string | null;
  merged: number;
  merged_per_hour: { hour: string; merged: number }[];
  time_to_merge_seconds: { p50: number | null; p95: number | null };
  ci_runs: number;
  ci_runs_per_merged_pull_request: number | null;
  dequeue_reasons: { reason: string; count: number }[];
  batch_outcomes: { outcome: string; count: number }[];
}

/**
 * The queue's statistics over HTTP, from a real queue driven through the sandbox forge: a batch of
 * three where two changes fail only together, so the batch fails, is bisected, and the second of
 * the pair leaves with CHECKS_FAILED while the other two merge.
 */
describe('merge-queue statistics (all-in-one app)', () => {
  jest.setTimeout(600_000);
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ SWITCHYARD_SANDBOX_CI_SECONDS: '1' });
  }, 120_000);
  afterAll(() => app?.close());

  it('counts the merges, the dequeue reason and the batch outcomes of a queue that bisected a failed batch', async () => {
    const team = new SandboxTeam(app, uniqueRepository('queue-statistics'));
    const opened = new Date().toISOString();
    // Each adds a file of its own: they merge cleanly, and only a tree holding both fails.
    const { cents, docs, euros } = await team.openSemanticConflict();
    for (const number of [cents, docs, euros]) await team.comment(number, '@mergify queue');
    await team.until('every pull request to leave the queue', async () => (await team.leaves()).length === 3);
    expect(await team.leaves()).toEqual([
      [cents, 'PR_MERGED'],
      [docs, 'PR_MERGED'],
      [euros, 'CHECKS_FAILED'],
    ]);
    const runs = (await team.queueEvents()).filter((e) => e.type === 'merge_queue.checks_started').length;

    // The engine keeps real time while the app's clock (the default `until`) stands still: a window of its own.
    const window = `since=${encodeURIComponent(opened)}&until=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}`;
    const path = `/v1/repos/${team.repository}/merge-queue/statistics?branch=main&${window}`;
    let statistics: StatisticsJson | undefined;
    await team.until('the statistics to count every event', async () => {
      const answer = await app.request('GET', path);
      expect({ status: answer.status, body: answer.status === 200 ? null : answer.body }).toEqual({
        status: 200,
        body: null,
      });
      statistics = answer.body as unknown as StatisticsJson;
      return (
        statistics.merged === 2 && statistics.dequeue_reasons.length === 1 && statistics.ci_runs === runs
      );
    });
    expect(statistics).toMatchObject({
      branch: 'main',
      merged: 2,
      ci_runs: runs,
      ci_runs_per_merged_pull_request: runs / 2,
      dequeue_reasons: [{ reason: 'CHECKS_FAILED', count: 1 }],
    });
    expect(statistics!.merged_per_hour.reduce((sum, hour) => sum + hour.merged, 0)).toBe(2);
    expect(statistics!.time_to_merge_seconds.p50).toBeGreaterThan(0);
    expect(statistics!.time_to_merge_seconds.p95).toBeGreaterThanOrEqual(
      statistics!.time_to_merge_seconds.p50!,
    );
    const outcomes = Object.fromEntries(
      statistics!.batch_outcomes.map((entry) => [entry.outcome, entry.count]),
    );
    expect(outcomes.failed).toBeGreaterThanOrEqual(1);
    expect(outcomes.bisected).toBeGreaterThanOrEqual(1);
    expect(outcomes.passed).toBeGreaterThanOrEqual(1);

    // Another branch's queue holds nothing of these.
    const other = await app.request(
      'GET',
      `/v1/repos/${team.repository}/merge-queue/statistics?branch=release&${window}`,
    );
    expect(other.body).toMatchObject({ merged: 0, dequeue_reasons: [] });
  });

  it('refuses a window that ends before it starts or a date that is not RFC 3339, with a detail', async () => {
    const repository = uniqueRepository('queue-statistics-window');
    const backwards = await app.request(
      'GET',
      `/v1/repos/${repository}/merge-queue/statistics?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z`,
    );
    expect(backwards.status).toBe(422);
    expect(backwards.body).toEqual({ detail: 'since must be before until' });
    const tooLong = await app.request(
      'GET',
      `/v1/repos/${repository}/merge-queue/statistics?since=2026-01-01T00:00:00Z&until=2026-06-01T00:00:00Z`,
    );
    expect(tooLong.status).toBe(422);
    expect(typeof tooLong.body.detail).toBe('string');
    const notADate = await app.request(
      'GET',
      `/v1/repos/${repository}/merge-queue/statistics?since=yesterday`,
    );
    expect(notADate.status).toBeGreaterThanOrEqual(400);
    expect(notADate.status).toBeLessThan(500);
    expect(notADate.body.detail).toBeDefined();
  });
});
