import { CommandService } from '@switchyard/event-store/application';
import { SqlEventStore } from '@switchyard/event-store/sql';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import type { MergeQueueEvent } from '../domain/events';
import {
  checksReported,
  command,
  configure,
  draftCreated,
  enqueue,
  policyWith,
} from '../testing/queue-commands';
import {
  mergeQueueQueuesProjection,
  occupiedQueuesOf,
  QUEUE_MEMBERS_TABLE,
  QUEUES_TABLE,
  queuesOf,
} from './queues.projection';

describeEachDatabase('merge_queue.queues projection', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;

  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    await executor.transaction((tx) => mergeQueueQueuesProjection.setup(tx));
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await executor?.close();
  });

  it('knows the queues that hold pull requests: entered in, merged and left out', async () => {
    const repository = `acme/queues-${db.name}-${Date.now()}`.toLowerCase();
    const commands = new CommandService(store);
    const applied = new Map<string, bigint>();
    const handle = async (
      baseRef: string,
      next: MergeQueueCommand | ((h: MergeQueueEvent[]) => MergeQueueCommand),
    ) => {
      const stream = mergeQueueStreamId(repository, baseRef);
      const history = async () =>
        (await store.readStream(stream)).events.map(
          (e) => ({ type: e.type, data: e.data }) as MergeQueueEvent,
        );
      const decided = typeof next === 'function' ? next(await history()) : next;
      await commands.handle(stream, snapshottingMergeQueueDecider, { ...decided, repository, baseRef });
      // Only what this stream recorded since the last call, as the processor hands it over.
      const after = applied.get(stream) ?? -1n;
      const fresh = (await store.readStream(stream)).events.filter((e) => e.revision > after);
      await executor.transaction((tx) => mergeQueueQueuesProjection.apply(tx, fresh));
      applied.set(stream, fresh[fresh.length - 1]?.revision ?? after);
    };
    const occupied = async () =>
      (await occupiedQueuesOf(executor)).filter((queue) => queue.repository === repository);

    await handle('main', configure(policyWith({ maxParallelChecks: 2 })));
    await handle('release', configure(policyWith()));
    expect(await occupied()).toEqual([]);

    for (const n of [1, 2, 3]) await handle('main', enqueue(n, n));
    await handle('release', enqueue(7, 4));
    expect(await occupied()).toEqual([
      { repository, baseRef: 'main' },
      { repository, baseRef: 'release' },
    ]);

    const dequeue = (pullRequest: number, at: number) =>
      command('dequeue', at, { pullRequest, code: 'PR_MANUALLY_DEQUEUED', reason: 'no', trigger: 'test' });
    await handle('release', dequeue(7, 5));
    await handle('main', dequeue(3, 5));
    await handle('main', (history) => draftCreated(history, 1, 6, 901));
    await handle('main', (history) => checksReported(history, 1, 7, 'success'));
    await handle('main', command('merged', 8, { pullRequest: 1, mergeCommitSha: 'm1' }));
    await handle('main', (history) => draftCreated(history, 2, 9, 902));
    await handle('main', (history) => checksReported(history, 2, 10, 'success'));
    expect(await occupied()).toEqual([{ repository, baseRef: 'main' }]);

    await handle('main', command('merged', 11, { pullRequest: 2, mergeCommitSha: 'm2' }));
    expect(await occupied()).toEqual([]);
    // Every queue that ever existed is still known to repository-wide facts.
    expect(await queuesOf(executor, repository)).toEqual([
      { repository, baseRef: 'main' },
      { repository, baseRef: 'release' },
    ]);

    await handle('release', enqueue(7, 12));
    expect(await occupied()).toEqual([{ repository, baseRef: 'release' }]);
  });

  it('a batch that enters, leaves and enters again ends where its last event puts each pull request', async () => {
    const repository = `acme/queues-batch-${db.name}-${Date.now()}`.toLowerCase();
    const stream = mergeQueueStreamId(repository, 'main');
    const commands = new CommandService(store);
    const dequeue = (pullRequest: number, at: number) =>
      command('dequeue', at, { pullRequest, code: 'PR_MANUALLY_DEQUEUED', reason: 'no', trigger: 'test' });
    for (const next of [
      configure(policyWith()),
      enqueue(5, 1),
      dequeue(5, 2),
      enqueue(5, 3),
      enqueue(6, 4),
      dequeue(6, 5),
    ])
      await commands.handle(stream, snapshottingMergeQueueDecider, { ...next, repository, baseRef: 'main' });
    const { events } = await store.readStream(stream);
    await executor.transaction((tx) => mergeQueueQueuesProjection.apply(tx, events));
    const { rows } = await executor.query<{ pull_request: number }>(
      `SELECT pull_request FROM ${QUEUE_MEMBERS_TABLE} WHERE repository_key = $1 ORDER BY pull_request`,
      [repository],
    );
    expect(rows.map((row) => Number(row.pull_request))).toEqual([5]);
  });

  it('before the members table exists (the generation before version 2), every known queue is visited', async () => {
    const before = await db.open();
    try {
      await before.exec(
        `CREATE TABLE IF NOT EXISTS ${QUEUES_TABLE} (repository_key text NOT NULL, base_ref text NOT NULL,
           PRIMARY KEY (repository_key, base_ref));
         INSERT INTO ${QUEUES_TABLE} VALUES ('acme/old', 'main');`,
      );
      expect(await occupiedQueuesOf(before)).toEqual([{ repository: 'acme/old', baseRef: 'main' }]);
    } finally {
      await before.close();
    }
  });
});
