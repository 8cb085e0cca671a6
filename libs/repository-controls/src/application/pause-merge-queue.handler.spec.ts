import type { Position } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock, type Actor } from '@switchyard/kernel';
import { recordingWriteVisibility, WriteVisibility, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueuePauseStreamId } from '../domain/merge-queue-pause';
import { MergeQueuePauseQueries, PAUSE_READ_MODELS } from './merge-queue-pause.queries';
import { PauseMergeQueueCommand, PauseMergeQueueHandler } from './pause-merge-queue.handler';
import { UnpauseMergeQueueCommand, UnpauseMergeQueueHandler } from './unpause-merge-queue.handler';

const actor: Actor = { type: 'application', id: 1, name: 'ops' };
const repository = 'acme/widgets';
const EFFECTS = 'merge_queue.effects#3/8';

/** Processors that each include every position up to where the test has moved them. */
class SteppedFreshness implements ReadModelFreshness {
  readonly waits: { readModels: readonly string[]; position: Position | null }[] = [];
  constructor(private readonly lagging: ReadonlySet<string>) {}

  async assertRunning(): Promise<void> {}

  async waitFor(readModels: readonly string[], position: Position | null): Promise<boolean> {
    this.waits.push({ readModels, position });
    return !readModels.some((name) => this.lagging.has(name));
  }
}

function handlersWith(freshness: ReadModelFreshness) {
  const store = new InMemoryEventStore();
  const commands = new CommandService(store);
  const clock = new FixedClock(new Date('2026-03-02T10:00:00Z'));
  const pauses = new MergeQueuePauseQueries({} as SqlExecutor);
  const fence = { processorsFor: (key: string) => (key === repository ? [EFFECTS] : []) };
  const pause = new PauseMergeQueueHandler(commands, freshness, clock, fence, pauses);
  const unpause = new UnpauseMergeQueueHandler(commands, freshness, clock, pauses);
  return {
    store,
    pause: (reason: string) => pause.execute(new PauseMergeQueueCommand(repository, reason, actor)),
    unpause: () => unpause.execute(new UnpauseMergeQueueCommand(repository, actor)),
  };
}

describe('PauseMergeQueueHandler: a pause answers once the merges are fenced', () => {
  it('waits until the repository’s effects processor has passed the pause event, after the read models', async () => {
    const freshness = new SteppedFreshness(new Set());
    const { store, pause } = handlersWith(freshness);

    await pause('release');

    const [paused] = (await store.readStream(mergeQueuePauseStreamId(repository))).events;
    expect(freshness.waits).toEqual([
      { readModels: PAUSE_READ_MODELS, position: paused!.position },
      { readModels: [EFFECTS], position: paused!.position },
    ]);
  });

  it('answers as not yet in force (202) when the effects processor has not passed the pause in time', async () => {
    const { pause } = handlersWith(new SteppedFreshness(new Set([EFFECTS])));
    const visibility = new WriteVisibility();

    const answer = await recordingWriteVisibility(visibility, () => pause('release'));

    expect(answer.reason).toBe('release');
    expect(visibility.notYetVisibleIn).toEqual([EFFECTS]);
  });

  it('does not wait for the effects to unpause: lifting a pause fences nothing', async () => {
    const freshness = new SteppedFreshness(new Set());
    const { pause, unpause } = handlersWith(freshness);
    await pause('release');
    freshness.waits.length = 0;

    await unpause();

    expect(freshness.waits.map((wait) => wait.readModels)).toEqual([PAUSE_READ_MODELS]);
  });
});
