import type { CheckOnHead } from '@switchyard/code-host';
import { pullRequestSnapshotsProjection } from '@switchyard/code-host/pull-requests/projection/pull-request-snapshots.projection';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions/testing/pull-request-snapshot.fixture';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { FixedClock } from '@switchyard/kernel';
import { ensureCheckpointTable } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueEvent } from '../domain/events';
import {
  checksReported,
  command,
  configure,
  enqueue,
  minutes,
  policyWith,
  run,
  then,
  withDrafts,
} from '../testing/queue-commands';
import { queueStatusProjection } from './queue-status.projection';
import { QueueStatusService } from './queue-status.service';
import type { BatchJson } from './status-json';

const check = (name: string, state: CheckOnHead['state']): CheckOnHead => ({
  name,
  appSlug: 'sandbox-ci',
  source: 'check-run',
  state,
  detailsUrl: null,
  startedAt: null,
  completedAt: null,
});

/**
 * A batch that merged stays listed (`merged`) until the next one starts: with its pull requests'
 * titles, authors and its checks, as they were shown while it ran (defect 4 of issue 32).
 */
describeEachDatabase('queue status: a merged batch keeps its details', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;

  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    await executor.transaction((tx) => ensureCheckpointTable(tx));
    await queueStatusProjection.setup(executor);
    await pullRequestSnapshotsProjection.setup(executor);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await executor?.close();
  });

  const repository = `acme/merged-${db.name}-${Date.now()}`;
  const [owner, name] = repository.split('/') as [string, string];
  const streamId = mergeQueueStreamId(repository, 'main');
  let appended = 0;

  /** The code host's snapshot of pull request `number`, as the snapshot reader records it. */
  const snapshot = async (number: number, fields: Parameters<typeof pullRequestSnapshotFixture>[0]) => {
    const snapshotStream = `spec-pull-requests-${repository}-${number}`;
    await store.appendToStream(
      snapshotStream,
      [
        {
          type: 'github.pull_request_changed',
          data: {
            repository,
            number,
            action: 'edited',
            pullRequest: pullRequestSnapshotFixture({
              repository: { owner, name, fullName: repository, defaultBranch: 'main' },
              number,
              ...fields,
            }),
            label: null,
            sender: 'spec',
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    const { events } = await store.readStream(snapshotStream);
    await pullRequestSnapshotsProjection.apply(executor, events);
  };

  /** Appends the queue's new events (the history is given whole) and projects them. */
  const recorded = async (history: MergeQueueEvent[]) => {
    const fresh = history.slice(appended).map((event) => ({ ...event, data: { ...event.data, repository } }));
    await store.appendToStream(streamId, fresh, { expectedRevision: 'any' });
    const { events } = await store.readStream(streamId, { fromRevision: BigInt(appended) });
    appended = history.length;
    await queueStatusProjection.apply(executor, events);
  };

  const batches = async (): Promise<BatchJson[]> => {
    const service = new QueueStatusService(executor, store, clock);
    return (await service.status(repository, { branch: 'main' })).batches;
  };
  const clock = new FixedClock(new Date(minutes(30)));

  it('shows the title, the author and the checks of a merged batch as while it ran', async () => {
    await snapshot(1, { title: 'Add the widget', author: 'alice', authorId: 4242 });
    await snapshot(900, {
      title: 'merge queue: checking main',
      draft: true,
      checks: [check('ci', 'success'), check('lint', 'success'), check('Mergify Merge Queue', 'pending')],
    });
    // The drafts the test helper creates are numbered from 900.
    let history = withDrafts(run([configure(policyWith({ maxParallelChecks: 2 })), enqueue(1, 0)]).events, 1);
    await recorded(history);
    const details = (batch: BatchJson) => ({
      code: batch.status.code,
      checks: batch.checks_summary,
      pullRequests: batch.pull_requests.map((pr) => [pr.number, pr.title, pr.author]),
    });
    const whileRunning = {
      checks: { passed: 2, total: 2 },
      pullRequests: [[1, 'Add the widget', { id: 4242, login: 'alice' }]],
    };
    expect((await batches()).map(details)).toEqual([{ code: 'running', ...whileRunning }]);

    history = then(history, checksReported(history, 1, 10, 'success'));
    history = then(history, command('merged', 11, { pullRequest: 1, mergeCommitSha: 'm1' }));
    await recorded(history);
    expect((await batches()).map(details)).toEqual([{ code: 'merged', ...whileRunning }]);
  });
});
