import { pullRequestSnapshotsProjection } from '@switchyard/code-host/pull-requests/projection/pull-request-snapshots.projection';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config/conditions/testing/pull-request-snapshot.fixture';
import { CommandService } from '@switchyard/event-store/application';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { FixedClock } from '@switchyard/kernel';
import { ensureCheckpointTable, ProcessorHost } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase, eventually, scaledWait } from '@switchyard/testing';
import { mergeQueueStreamId, snapshottingMergeQueueDecider } from '../application/merge-queue.stream';
import { configure, enqueue, minutes, policyWith } from '../testing/queue-commands';
import { queueStatusProjection } from './queue-status.projection';
import { QueueStatusService } from './queue-status.service';
import type { MergeQueueStatusJson } from './status-json';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The kept live answer: served again while nothing it is made of moved, rendered again as soon as
 * its queue or its pull requests' snapshots change, also for read models filled without checkpoints.
 */
describeEachDatabase('queue status service: the kept live answer', (db) => {
  let executor: SqlExecutor;
  let store: SqlEventStore;
  let processors: ProcessorHost | null = null;

  beforeAll(async () => {
    executor = await db.open();
    store = await SqlEventStore.open(executor);
  }, 120_000);
  afterAll(async () => {
    await processors?.stop();
    await store?.close();
    await executor?.close();
  });

  const repository = `acme/kept-${db.name}-${Date.now()}`;
  const clock = new FixedClock(new Date(minutes(30)));
  const commands = () => new CommandService(store);
  const enqueued = async (n: number) => {
    const outcome = await commands().handle(
      mergeQueueStreamId(repository, 'main'),
      snapshottingMergeQueueDecider,
      { ...enqueue(n, n), repository },
    );
    return outcome.position;
  };
  const retitled = async (pullRequestOf: string, number: number, title: string) => {
    const [owner, name] = pullRequestOf.split('/') as [string, string];
    const { lastPosition } = await store.appendToStream(
      `spec-pull-requests-${pullRequestOf}`,
      [
        {
          type: 'github.pull_request_changed',
          data: {
            repository: pullRequestOf,
            number,
            action: 'edited',
            pullRequest: pullRequestSnapshotFixture({
              repository: { owner, name, fullName: pullRequestOf, defaultBranch: 'main' },
              number,
              title,
            }),
            label: null,
            sender: 'spec',
          },
        },
      ],
      { expectedRevision: 'any' },
    );
    return lastPosition;
  };
  const readModels = [queueStatusProjection.name, pullRequestSnapshotsProjection.name];
  const waiting = (text: string) =>
    (JSON.parse(text) as MergeQueueStatusJson).waiting_pull_requests.map((p) => [p.number, p.title]);

  it('answers from read models filled by hand (no checkpoints) as they change', async () => {
    const service = new QueueStatusService(executor, store, clock);
    await executor.transaction((tx) => ensureCheckpointTable(tx));
    await queueStatusProjection.setup(executor);
    await pullRequestSnapshotsProjection.setup(executor);
    await commands().handle(mergeQueueStreamId(repository, 'main'), snapshottingMergeQueueDecider, {
      ...configure(policyWith({ maxParallelChecks: 0 })),
      repository,
    });
    await enqueued(1);
    const project = async () => {
      const { events } = await store.readStream(mergeQueueStreamId(repository, 'main'));
      await queueStatusProjection.apply(executor, events);
    };
    await project();
    expect(waiting(await service.statusText(repository, { branch: 'main' }))).toEqual([[1, '']]);
    await enqueued(2);
    await project();
    expect(waiting(await service.statusText(repository, { branch: 'main' }))).toEqual([
      [1, ''],
      [2, ''],
    ]);
  });

  it('serves the kept answer while nothing moved, and a new one once its queue or snapshots move', async () => {
    const host = ProcessorHost.of([queueStatusProjection, pullRequestSnapshotsProjection], {
      executor,
      store,
      logger: quiet,
    });
    processors = host;
    host.start();
    expect(await host.waitFor(readModels, await store.headPosition(), 60_000)).toBe(true);
    const service = new QueueStatusService(executor, store, clock);
    const live = () => service.statusText(repository, { branch: 'main' });

    const first = await live();
    expect(waiting(first)).toEqual([
      [1, ''],
      [2, ''],
    ]);
    expect(await live()).toBe(first);
    expect(JSON.parse(first)).toEqual(await service.status(repository, { branch: 'main' }));

    // Another repository's pull request changes: the checkpoints move, this answer does not.
    expect(await host.waitFor(readModels, await retitled('acme/elsewhere', 1, 'Other'), 60_000)).toBe(true);
    expect(await live()).toBe(first);

    expect(await host.waitFor(readModels, await enqueued(3), 60_000)).toBe(true);
    expect(waiting(await live())).toEqual([
      [1, ''],
      [2, ''],
      [3, ''],
    ]);

    expect(await host.waitFor(readModels, await retitled(repository, 2, 'Second, retitled'), 60_000)).toBe(
      true,
    );
    expect(waiting(await live())).toEqual([
      [1, ''],
      [2, 'Second, retitled'],
      [3, ''],
    ]);
  });

  it('shares checkpoint reads among requests that arrive together, each answered by a read begun after it arrived', async () => {
    const service = new QueueStatusService(executor, store, clock);
    const reader = service.reader;
    const read = reader.readModelsPosition.bind(reader);
    let arrived = 0;
    const arrivedWhenReadBegan: number[] = [];
    reader.readModelsPosition = () => {
      arrivedWhenReadBegan.push(arrived);
      return read();
    };
    const answers = Array.from({ length: 10 }, () => {
      arrived += 1;
      return service.statusText(repository, { branch: 'main' });
    });
    expect(new Set(await Promise.all(answers)).size).toBe(1);
    // The first request's own read; the nine behind it share the one begun once it was done.
    expect(arrivedWhenReadBegan).toEqual([1, 10]);
  });

  it('in a new second, sends the kept answer at once and renders the next one off the request path', async () => {
    const service = new QueueStatusService(executor, store, clock);
    const live = () => service.status(repository, { branch: 'main' });
    const first = await live();
    expect(await live()).toBe(first);
    clock.advance(1000);
    // The kept answer, not one rendered for this request...
    expect(await live()).toBe(first);
    // ...which the next one, rendered meanwhile, replaces.
    const next = await eventually(
      'the answer rendered for the new second',
      async () => {
        const answer = await live();
        return answer !== first && answer;
      },
      { timeoutMs: scaledWait(20_000) },
    );
    expect(next).toEqual(first);
    expect(await live()).toBe(next);
    // A change is never served from the kept answer: the request waits for its rendering.
    expect(await processors!.waitFor(readModels, await enqueued(4), 60_000)).toBe(true);
    clock.advance(1000);
    expect((await live()).waiting_pull_requests.map((p) => p.number)).toEqual([1, 2, 3, 4]);
  });
});
