import type { CodeHost, RepositoryCoordinates } from '@switchyard/code-host';
import { CommandService } from '@switchyard/event-store/application';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { FixedClock } from '@switchyard/kernel';
import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import type { FreezeWatch } from './freeze-watch';
import { QueueDesk } from './queue-desk';
import { setUpIssuer } from './testing/engine-issuers';
import { QueueTimer } from './queue-timer';
import { mergeQueueQueuesProjection } from './queues.projection';
import { RepositoryConfigurations } from './repository-configuration';

const CONFIGURATION = 'queue_rules:\n  - name: default\n    batch_size: 3\n    batch_max_wait_time: 2 s\n';
const START = Date.parse('2026-07-01T10:00:00.000Z');

describeEachDatabase('merge-queue timer', (db) => {
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

  /** A code host whose configuration read fails for the repositories named. */
  const codeHost = (failing: ReadonlySet<string>) =>
    ({
      getRepository: async ({ owner, name }: RepositoryCoordinates) => ({
        owner,
        name,
        fullName: `${owner}/${name}`,
        defaultBranch: 'main',
      }),
      getConfiguration: async ({ owner, name }: RepositoryCoordinates) => {
        if (failing.has(`${owner}/${name}`)) throw new Error('the code host is down for this one');
        return { path: '.mergify.yml', content: CONFIGURATION };
      },
    }) as unknown as CodeHost;

  it('ticks a batch whose wait ran out, in every queue, even when another queue fails', async () => {
    const tag = `${db.name}-${START}`.toLowerCase();
    // Sorted first, so the failing queue is visited before the other.
    const broken = `acme/a-broken-${tag}`;
    const fine = `acme/b-fine-${tag}`;
    const clock = new FixedClock(new Date(START));
    const commands = new CommandService(store);
    const issuer = setUpIssuer(commands);
    const setUp = new QueueDesk(store, new RepositoryConfigurations(codeHost(new Set())));
    for (const repository of [broken, fine]) {
      const enqueue: MergeQueueCommand = {
        kind: 'enqueue',
        repository,
        baseRef: 'main',
        at: START,
        pullRequest: 1,
        queueName: 'default',
        priority: 2000,
        priorityRuleName: null,
        allowCheckInterruption: false,
        headSha: 'a'.repeat(40),
        scopes: [],
        allScopes: false,
        dependsOn: [],
        trigger: 'Rule: automatic queue',
      };
      await setUp.issue(issuer, enqueue);
      const { events } = await store.readStream(mergeQueueStreamId(repository, 'main'));
      await executor.transaction((tx) => mergeQueueQueuesProjection.apply(tx, events));
    }
    const refreshed: string[] = [];
    const timer = new QueueTimer({
      desk: new QueueDesk(store, new RepositoryConfigurations(codeHost(new Set([broken])))),
      issuer,
      freezes: {
        refresh: async (_issuer: unknown, repository: string) => void refreshed.push(repository),
      } as unknown as FreezeWatch,
      sql: executor,
      clock,
      logger: { warn: () => undefined },
    });
    const types = async (repository: string) =>
      (await store.readStream(mergeQueueStreamId(repository, 'main'))).events.map((e) => e.type);

    // One second in, the batch of one still waits for company.
    clock.set(new Date(START + 1000));
    await timer.tickAll();
    expect(await types(fine)).not.toContain('merge_queue.batch_composed');

    // Its batch_max_wait_time ran out a while ago when the timer looks again.
    clock.set(new Date(START + 5000));
    await timer.tickAll();
    expect(await types(fine)).toContain('merge_queue.batch_composed');
    expect(await types(broken)).not.toContain('merge_queue.batch_composed');
    expect(refreshed.filter((repository) => repository === fine)).toHaveLength(2);
  });
});
