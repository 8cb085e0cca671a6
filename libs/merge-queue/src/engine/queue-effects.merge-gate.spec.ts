import type { CodeHost } from '@switchyard/code-host';
import { pullRequestSnapshotFixture } from '@switchyard/mergify-config';
import type { RecordedEvent } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { type Actor, FixedClock } from '@switchyard/kernel';
import {
  mergeQueuePauseDecider,
  mergeQueuePauseStreamId,
  scheduledFreezeDecider,
  scheduledFreezeStreamId,
} from '@switchyard/repository-controls';
import { mergeQueueStreamId } from '../application/merge-queue.stream';
import type { MergeQueueCommand } from '../domain/commands';
import { QueueDesk } from './queue-desk';
import { createQueueEffectsReactor } from './queue-effects.reactor';
import { RepositoryConfigurations } from './repository-configuration';
import { reactionsOf, setUpIssuer } from './testing/engine-issuers';
import { EngineReadModels } from './testing/engine-read-models';
import { RecordingCodeHost, REPOSITORY } from './testing/recording-code-host';

const STREAM = mergeQueueStreamId(REPOSITORY, 'main');
const START = new Date('2026-03-02T10:00:00.000Z');
const ALICE: Actor = { type: 'user', id: 1, name: 'alice' };

/** A command service that runs `after` once a command of the given kind is recorded. */
class CommandServiceWithSideEffect extends CommandService {
  after: { kind: MergeQueueCommand['kind']; run: () => Promise<void> } | null = null;
  override handle: CommandService['handle'] = async (streamId, decider, command, metadata, options) => {
    const outcome = await super.handle(streamId, decider, command, metadata, options);
    const after = this.after;
    if (after && (command as MergeQueueCommand).kind === after.kind) {
      this.after = null;
      await after.run();
    }
    return outcome;
  };
}

/**
 * A queue, its effects reactor (with its merge gate over the real read models), and the
 * repository's controls: the pause through its own decider and stream, as `PUT …/merge-queue/pause`
 * records it before answering, and freezes through the freeze calendar's read model. The intake
 * and the timer do not run: the queue's state learns of pauses and freezes only through the gate.
 */
function repositoryWithQueue(readModels: EngineReadModels, configuration: string) {
  const host = new RecordingCodeHost();
  host.configuration = configuration;
  const codeHost = host as unknown as CodeHost;
  const store = new InMemoryEventStore();
  const clock = new FixedClock(START);
  const commands = new CommandServiceWithSideEffect(store);
  const desk = new QueueDesk(store, new RepositoryConfigurations(codeHost));
  const setUp = setUpIssuer(commands);
  const reaction = reactionsOf('merge_queue.effects', commands);
  const gate = readModels.mergeGate(store, desk, clock);
  const effects = createQueueEffectsReactor({ desk, codeHost, gate, clock });
  const at = () => clock.now().getTime();
  let read = 0;
  return {
    host,
    desk,
    gate,
    clock,
    commands,
    freezes: readModels.freezeWatch(desk, clock),
    setUp,
    /** Every event of the store, in global order. */
    async all(): Promise<RecordedEvent[]> {
      return (await store.readAll({ after: 'start', limit: 10_000 })).events;
    },
    async drain(): Promise<void> {
      for (; ; read++) {
        await readModels.catchUp(store);
        const { events } = await store.readStream(STREAM);
        if (read >= events.length) return;
        if (effects.eventTypes?.includes(events[read]!.type) ?? true)
          await effects.react(events[read]!, reaction(events[read]!));
      }
    },
    /** Queues a pull request whose snapshot the code host has shown. */
    async queue(pullRequest: number): Promise<void> {
      await EngineReadModels.recordRead(
        store,
        pullRequestSnapshotFixture({
          repository: { owner: 'acme', name: 'widgets', fullName: REPOSITORY, defaultBranch: 'main' },
          number: pullRequest,
          head: { ref: `feature-${pullRequest}`, sha: `head-${pullRequest}`, repositoryFullName: REPOSITORY },
        }),
        clock.now(),
      );
      await desk.issue(setUp, {
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
      });
    },
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
    /** What `PUT …/merge-queue/pause` stores before it answers; the event's global position. */
    async pause(reason: string): Promise<string> {
      const outcome = await commands.handle(mergeQueuePauseStreamId(REPOSITORY), mergeQueuePauseDecider, {
        type: 'PauseMergeQueue',
        repository: REPOSITORY,
        reason,
        actor: ALICE,
        at: clock.now(),
      });
      return outcome.position!;
    },
    /** What `DELETE …/merge-queue/pause` stores. */
    async unpause(): Promise<void> {
      await commands.handle(mergeQueuePauseStreamId(REPOSITORY), mergeQueuePauseDecider, {
        type: 'UnpauseMergeQueue',
        repository: REPOSITORY,
        actor: ALICE,
        at: clock.now(),
      });
    },
    /** The intake's record of a pause event on the queue. */
    async intakeSeesPause(paused: boolean): Promise<void> {
      await desk.issue(setUp, {
        kind: 'set_pause',
        repository: REPOSITORY,
        baseRef: 'main',
        at: at(),
        paused,
        reason: paused ? 'release' : null,
      });
    },
    async scheduleFreeze(start: string, end: string): Promise<void> {
      const freezeId = '00000000-0000-4000-8000-000000000007';
      await commands.handle(scheduledFreezeStreamId(freezeId), scheduledFreezeDecider, {
        type: 'ScheduleFreeze',
        freezeId,
        repository: REPOSITORY,
        reason: 'release day',
        start,
        end,
        timezone: 'UTC',
        matchingConditions: [],
        excludeConditions: [],
        actor: ALICE,
        at: clock.now(),
      });
    },
  };
}

const mergedEvents = (events: RecordedEvent[]) =>
  events.filter((e) => e.type === 'merge_queue.pull_request_merged');

/** One pull request checked on a draft (two checks slots), its checks passed. */
const DRAFTS = 'merge_queue:\n  max_parallel_checks: 2\n';

describe('merge-queue effects: a merge is checked against the pause and the freeze calendar as it is performed', () => {
  let readModels: EngineReadModels;
  beforeAll(async () => {
    readModels = await EngineReadModels.open();
  }, 60_000);
  afterAll(() => readModels?.close());
  beforeEach(() => readModels.reset());

  it('a pause stored after the batch passed and before the intake told the queue: nothing merges after it', async () => {
    const repository = repositoryWithQueue(readModels, DRAFTS);
    await repository.queue(7);
    await repository.drain();
    await repository.checksPass(7);
    // PUT …/pause answers now: its event is stored. The effects react to the pass only afterwards.
    const pausedAt = await repository.pause('release');
    await repository.drain();

    expect(repository.host.merges).toEqual([]);
    expect(mergedEvents(await repository.all()).filter((e) => e.position > pausedAt)).toEqual([]);
    const { state } = await repository.desk.state(REPOSITORY, 'main');
    expect(state).toMatchObject({ paused: true, pauseReason: 'release' });
    expect(state.batches.map((b) => b.phase)).toEqual(['passed']);

    // The pause ends, and the intake tells the queue: the merge goes through.
    await repository.unpause();
    await repository.intakeSeesPause(false);
    await repository.drain();
    expect(repository.host.merges).toEqual([7]);
  });

  it('a pause stored while a batch merges one pull request at a time: the merges after it wait', async () => {
    const repository = repositoryWithQueue(
      readModels,
      'queue_rules:\n  - name: default\n    batch_size: 2\nmerge_queue:\n  max_parallel_checks: 2\n',
    );
    await repository.queue(7);
    await repository.queue(8);
    await repository.drain();
    await repository.checksPass(7);
    let pausedAt = '';
    // The pause is stored right after #7's merge is recorded, before #8's is performed.
    repository.commands.after = {
      kind: 'merged',
      run: async () => {
        pausedAt = await repository.pause('release');
      },
    };
    await repository.drain();

    expect(repository.host.merges).toEqual([7]);
    expect(pausedAt).not.toBe('');
    expect(mergedEvents(await repository.all()).filter((e) => e.position > pausedAt)).toEqual([]);
    expect((await repository.desk.state(REPOSITORY, 'main')).state.paused).toBe(true);
  });

  it('a batch whose checks end just after a freeze window opened does not merge until the window closes', async () => {
    const repository = repositoryWithQueue(readModels, DRAFTS);
    await repository.scheduleFreeze('2026-03-02T10:05:00', '2026-03-02T10:35:00');
    await repository.queue(7);
    await repository.drain();
    // 0.3 s into the window; the timer has not judged the calendar since it opened.
    repository.clock.set(new Date('2026-03-02T10:05:00.300Z'));
    await repository.checksPass(7);
    await repository.drain();

    expect(repository.host.merges).toEqual([]);
    const { state } = await repository.desk.state(REPOSITORY, 'main');
    expect(state.pullRequests[7]?.frozenSince).toBe(Date.parse('2026-03-02T10:05:00.300Z'));

    // The window closes; the timer tells the queue, and the merge goes through after it.
    repository.clock.set(new Date('2026-03-02T10:35:00.000Z'));
    await repository.freezes.refresh(repository.setUp, REPOSITORY, 'main');
    await repository.drain();
    expect(repository.host.merges).toEqual([7]);
    const [merged] = mergedEvents(await repository.all());
    expect(Date.parse((merged!.data as { occurredAt: string }).occurredAt)).toBeGreaterThanOrEqual(
      Date.parse('2026-03-02T10:35:00.000Z'),
    );
  });

  it('a merge that would start just before a window opens waits for it: it could land inside', async () => {
    const repository = repositoryWithQueue(readModels, DRAFTS);
    await repository.scheduleFreeze('2026-03-02T10:05:00', '2026-03-02T10:35:00');
    await repository.queue(7);
    await repository.drain();
    repository.clock.set(new Date('2026-03-02T10:04:59.500Z'));
    await repository.checksPass(7);
    await repository.drain();
    expect(repository.host.merges).toEqual([]);

    // Long enough before a window, a merge goes through.
    const early = repositoryWithQueue(readModels, DRAFTS);
    await early.queue(8);
    await early.drain();
    early.clock.set(new Date('2026-03-02T10:04:50.000Z'));
    await early.checksPass(8);
    await early.drain();
    expect(early.host.merges).toEqual([8]);
  });

  it('a pause that ends while its hold is recorded: the queue ends up unpaused, whatever order the records land in', async () => {
    const repository = repositoryWithQueue(readModels, DRAFTS);
    await repository.queue(7);
    await repository.drain();
    await repository.pause('release');
    const { state } = await repository.desk.state(REPOSITORY, 'main');
    const recorded: MergeQueueCommand[] = [];
    const held = await repository.gate.holds(
      { repository: REPOSITORY, baseRef: 'main', state },
      [7],
      async (command) => {
        if (recorded.length === 0) {
          // Between the gate's read and its record: the pause ends, and the intake records the end first.
          await repository.unpause();
          await repository.intakeSeesPause(false);
        }
        recorded.push(command);
        await repository.desk.issue(repository.setUp, command);
      },
    );
    expect(held).toBe(true);
    expect(recorded.map((c) => c.kind === 'set_pause' && c.paused)).toEqual([true, false]);
    expect((await repository.desk.state(REPOSITORY, 'main')).state.paused).toBe(false);
  });
});
