import { SqlEventStore } from '@switchyard/event-store/sql';
import { CommandService } from '@switchyard/event-store/application';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import type { MergeQueueEvent } from '../domain/events';
import { command, configure, enqueue, minutes, policyWith } from '../testing/queue-commands';
import { HISTORY_EVERY, QUEUE_STATUS_HISTORY_TABLE, queueStatusProjection } from './queue-status.projection';
import { QueueStatusReader } from './queue-status.reader';
import { evolveStatus, initialStatusFold } from './status-fold';

describeEachDatabase('merge_queue.status projection', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;

  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
    await queueStatusProjection.setup(executor);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await executor?.close();
  });

  it('folds each queue once, keeps folds aside for ?at=, and answers the past as the events say', async () => {
    const repository = `acme/status-${db.name}-${Date.now()}`;
    const stream = mergeQueueStreamId(repository, 'main');
    const commands = new CommandService(store);
    const on = <C extends { repository: string }>(command: C): C => ({ ...command, repository });
    await commands.handle(
      stream,
      snapshottingMergeQueueDecider,
      on(configure(policyWith({ maxParallelChecks: 2 }))),
    );
    for (let n = 1; n <= 40; n++)
      await commands.handle(stream, snapshottingMergeQueueDecider, on(enqueue(n, n)));
    const { events } = await store.readStream(stream);
    expect(events.length).toBeGreaterThan(HISTORY_EVERY);

    await queueStatusProjection.apply(executor, events.slice(0, 30));
    // A replay after a crash hands back events already applied: they are not folded twice.
    await queueStatusProjection.apply(executor, events);
    const reader = new QueueStatusReader(executor, store);
    const [live] = await reader.live(repository);
    const expected = events.reduce(
      (fold, event) => evolveStatus(fold, { type: event.type, data: event.data } as MergeQueueEvent),
      initialStatusFold(),
    );
    expect(live!.fold).toEqual(expected);
    expect(await reader.queueBranches(repository)).toEqual(['main']);

    const { rows } = await executor.query<{ count: string | number }>(
      `SELECT count(*) AS count FROM ${QUEUE_STATUS_HISTORY_TABLE} WHERE stream_id = $1`,
      [stream],
    );
    expect(Number(rows[0]!.count)).toBe(Math.floor(events.length / HISTORY_EVERY));

    // Past the kept fold: the fold of every event up to that minute, nothing after.
    const at = minutes(35);
    const upTo = events.filter((e) => Date.parse((e.data as { occurredAt: string }).occurredAt) <= at);
    const [past] = await reader.asOf(repository, at);
    expect(past!.fold).toEqual(
      upTo.reduce(
        (fold, event) => evolveStatus(fold, { type: event.type, data: event.data } as MergeQueueEvent),
        initialStatusFold(),
      ),
    );
    expect(Object.keys(past!.fold.queue.pullRequests)).toHaveLength(35);
    expect(await reader.firstEventAt(repository)).toBe(minutes(0));
  });

  it('lists a queue that drained among the branches with a merge queue, idle', async () => {
    const repository = `acme/drained-${db.name}-${Date.now()}`;
    const stream = mergeQueueStreamId(repository, 'main');
    const commands = new CommandService(store);
    const on = <C extends { repository: string }>(queued: C): C => ({ ...queued, repository });
    await commands.handle(stream, snapshottingMergeQueueDecider, on(configure(policyWith())));
    await commands.handle(stream, snapshottingMergeQueueDecider, on(enqueue(1, 1)));
    await commands.handle(
      stream,
      snapshottingMergeQueueDecider,
      on(
        command('dequeue', 2, {
          pullRequest: 1,
          code: 'PR_MANUALLY_DEQUEUED',
          reason: 'removed by hand',
          trigger: 'test',
        }),
      ),
    );
    await queueStatusProjection.apply(executor, (await store.readStream(stream)).events);
    const reader = new QueueStatusReader(executor, store);
    const [live] = await reader.live(repository);
    expect(live!.fold.queue.pullRequests).toEqual({});
    expect(await reader.queueBranches(repository)).toEqual(['main']);
    expect(await reader.queueBranches(`acme/never-queued-${db.name}-${Date.now()}`)).toEqual([]);
  });
});
