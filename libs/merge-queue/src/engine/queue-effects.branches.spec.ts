import type { CodeHost } from '@switchyard/code-host';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock } from '@switchyard/kernel';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { RepositoryConfigurations } from './repository-configuration';
import { reactionsOf, setUpIssuer } from './testing/engine-issuers';
import { EngineReadModels } from './testing/engine-read-models';
import { RecordingCodeHost, REPOSITORY } from './testing/recording-code-host';

const STREAM = mergeQueueStreamId(REPOSITORY, 'main');

/** A queue and its effects reactor, run over every event not read yet, as its runner does. */
function queueWithEffects(readModels: EngineReadModels, configuration: string) {
  const host = new RecordingCodeHost();
  host.configuration = configuration;
  const codeHost = host as unknown as CodeHost;
  const store = new InMemoryEventStore();
  const clock = new FixedClock(new Date('2026-03-02T10:00:00.000Z'));
  const commands = new CommandService(store);
  const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
  const setUp = setUpIssuer(commands);
  const reaction = reactionsOf('merge_queue.effects', commands);
  const effects = createQueueEffectsReactor({
    desk,
    codeHost,
    gate: readModels.mergeGate(store, desk, clock),
    clock,
  });
  let read = 0;
  const at = () => clock.now().getTime();
  return {
    host,
    desk,
    /** Issues a command on the queue, as a spec sets it up. */
    issue: (command: MergeQueueCommand) => desk.issue(setUp, command),
    at,
    async events() {
      return (await store.readStream(STREAM)).events.map((e) => ({
        type: e.type,
        data: e.data as Record<string, unknown>,
      }));
    },
    async drain(): Promise<void> {
      for (; ; read++) {
        const { events } = await store.readStream(STREAM);
        if (read >= events.length) return;
        if (effects.eventTypes?.includes(events[read]!.type) ?? true)
          await effects.react(events[read]!, reaction(events[read]!));
      }
    },
    queue: (pullRequest: number): MergeQueueCommand => ({
      kind: 'enqueue',
      repository: REPOSITORY,
      baseRef: 'main',
      at: at(),
      pullRequest,
      queueName: 'default',
      priority: 2000,
      priorityRuleName: null,
      allowCheckInterruption: false,
      headSha: `head-${pullRequest}`,
      scopes: [],
      allScopes: false,
      dependsOn: [],
      trigger: 'Command: queue',
    }),
    async checksPass(pullRequest: number): Promise<void> {
      const { state } = await desk.state(REPOSITORY, 'main');
      const batch = state.batches.find((b) => b.pullRequests.includes(pullRequest))!;
      await desk.issue(setUp, {
        kind: 'checks_reported',
        repository: REPOSITORY,
        baseRef: 'main',
        at: at(),
        batchId: batch.id,
        attempt: batch.attempt,
        conclusion: 'success',
        unsuccessfulChecks: [],
      });
    },
  };
}

const queueBranches = (host: RecordingCodeHost) =>
  [...host.branches].filter((branch) => branch.startsWith('mergify/merge-queue/'));

describe('merge-queue effects: the queue deletes every draft branch it created once nothing uses it', () => {
  let readModels: EngineReadModels;
  beforeAll(async () => {
    readModels = await EngineReadModels.open();
  }, 60_000);
  afterAll(() => readModels?.close());

  it('a pull request that conflicts with the one ahead: its half-built branch goes, before and after it leaves', async () => {
    const queue = queueWithEffects(readModels, 'merge_queue:\n  max_parallel_checks: 2\n');
    // #8 is checked on top of #7's draft, and does not merge onto it.
    queue.host.conflictingHeads.add('head-8');
    await queue.issue(queue.queue(7));
    await queue.issue(queue.queue(8));
    await queue.drain();
    const deferred = (await queue.events()).find((e) => e.type === 'merge_queue.conflict_deferred');
    expect(deferred?.data).toMatchObject({ pullRequest: 8, blockingPullRequests: [7] });
    expect(queue.host.branchesCreated).toHaveLength(2);
    // Only the branch of #7's running draft is still there.
    const { state } = await queue.desk.state(REPOSITORY, 'main');
    expect(queueBranches(queue.host)).toEqual([state.batches[0]!.branch]);

    await queue.checksPass(7);
    await queue.drain();
    const left = (await queue.events()).filter((e) => e.type === 'merge_queue.pull_request_left');
    expect(left.map((e) => [e.data.pullRequest, e.data.dequeueCode])).toEqual([
      [7, 'PR_MERGED'],
      [8, 'CONFLICT_WITH_PULL_AHEAD'],
    ]);
    expect(queueBranches(queue.host)).toEqual([]);
  });

  it('a pull request that conflicts with its base: the branch of its failed draft goes', async () => {
    const queue = queueWithEffects(readModels, 'merge_queue:\n  max_parallel_checks: 2\n');
    queue.host.conflictingHeads.add('head-7');
    await queue.issue(queue.queue(7));
    await queue.drain();
    const left = (await queue.events()).filter((e) => e.type === 'merge_queue.pull_request_left');
    expect(left.map((e) => [e.data.pullRequest, e.data.dequeueCode])).toEqual([
      [7, 'CONFLICT_WITH_BASE_BRANCH'],
    ]);
    expect(queue.host.branchesCreated).toHaveLength(1);
    expect(queueBranches(queue.host)).toEqual([]);
  });

  it('a crash after the branch was made, and the batch left before the effect ran again: the branch still goes', async () => {
    const queue = queueWithEffects(readModels, 'merge_queue:\n  max_parallel_checks: 2\n');
    const mergeIntoBranch = queue.host.mergeIntoBranch;
    queue.host.mergeIntoBranch = async () => {
      queue.host.mergeIntoBranch = mergeIntoBranch;
      throw new Error('process killed while building the draft');
    };
    await queue.issue(queue.queue(7));
    await expect(queue.drain()).rejects.toThrow('process killed');
    expect(queueBranches(queue.host)).toHaveLength(1);
    // Meanwhile the pull request was closed: its batch leaves before any draft was recorded.
    await queue.issue({
      kind: 'dequeue',
      repository: REPOSITORY,
      baseRef: 'main',
      at: queue.at(),
      pullRequest: 7,
      code: 'PR_DEQUEUED',
      reason: 'The pull request was closed',
      trigger: 'merge queue internal',
    });
    await queue.drain();
    expect(queue.host.drafts).toEqual([]);
    expect(queueBranches(queue.host)).toEqual([]);
  });
});
