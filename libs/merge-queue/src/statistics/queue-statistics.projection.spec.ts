import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { queueFactsIn, queueStatisticsProjection } from './queue-statistics.projection';
import { HOUR_MS, queueStatistics } from './queue-statistics';

const T0 = Date.parse('2026-11-20T10:00:00Z');

describeEachDatabase('merge_queue.statistics projection', (db) => {
  let executor: SqlExecutor;

  beforeAll(async () => {
    executor = await db.open();
    await executor.transaction((tx) => queueStatisticsProjection.setup(tx));
  }, 120_000);
  afterAll(() => executor?.close());

  it('keeps one fact per event, per base branch, and answers the same after a replay', async () => {
    const repository = `Acme/Stats-${db.name}-${Date.now()}`;
    let revision = 0n;
    const recorded = (baseRef: string, type: string, at: number, data: Record<string, unknown>) =>
      ({
        streamId: `merge_queue-${repository}-${baseRef}`,
        revision: revision++,
        position: String(revision),
        eventId: `e${revision}`,
        type,
        schemaVersion: 1,
        data: {
          repository,
          baseRef,
          trigger: 'merge queue internal',
          occurredAt: new Date(at).toISOString(),
          ...data,
        },
        metadata: {},
        recordedAt: new Date(at),
      }) as unknown as RecordedEvent;
    const events = [
      recorded('main', 'merge_queue.checks_started', T0 + 1_000, {}),
      recorded('main', 'merge_queue.batch_passed', T0 + 60_000, { covered: false }),
      recorded('main', 'merge_queue.pull_request_merged', T0 + 60_000, {
        queuedAt: new Date(T0).toISOString(),
      }),
      recorded('main', 'merge_queue.pull_request_left', T0 + 60_000, {
        merged: true,
        dequeueCode: 'PR_MERGED',
      }),
      recorded('main', 'merge_queue.pull_request_left', T0 + 90_000, {
        merged: false,
        dequeueCode: 'CHECKS_FAILED',
      }),
      recorded('release', 'merge_queue.batch_failed', T0 + 2_000, {}),
    ];
    await executor.transaction((tx) => queueStatisticsProjection.apply(tx, events));
    // A replay of what was already applied (a crash between the rows and the checkpoint) adds nothing.
    await executor.transaction((tx) => queueStatisticsProjection.apply(tx, events.slice(2)));

    const window = { since: T0, until: T0 + HOUR_MS };
    const main = queueStatistics(await queueFactsIn(executor, repository, 'main', window), window);
    expect(main).toMatchObject({
      merged: 1,
      timeToMergeSeconds: { p50: 60, p95: 60 },
      ciRuns: 1,
      dequeueReasons: [{ reason: 'CHECKS_FAILED', count: 1 }],
    });
    expect(main.batchOutcomes.filter((entry) => entry.count > 0)).toEqual([{ outcome: 'passed', count: 1 }]);
    const everyBranch = queueStatistics(
      await queueFactsIn(executor, repository.toLowerCase(), undefined, window),
      window,
    );
    expect(everyBranch.batchOutcomes.filter((entry) => entry.count > 0)).toEqual([
      { outcome: 'passed', count: 1 },
      { outcome: 'failed', count: 1 },
    ]);

    await executor.transaction((tx) => queueStatisticsProjection.reset(tx));
    expect(await queueFactsIn(executor, repository, undefined, window)).toEqual([]);
    await executor.transaction((tx) => queueStatisticsProjection.apply(tx, events));
    expect(queueStatistics(await queueFactsIn(executor, repository, 'main', window), window)).toEqual(main);
  });
});
