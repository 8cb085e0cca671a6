import type { Position } from '@switchyard/event-store';
import { CommandService } from '@switchyard/event-store/application';
import { InMemoryEventStore } from '@switchyard/event-store/in-memory';
import { FixedClock, type Actor } from '@switchyard/kernel';
import { recordingWriteVisibility, WriteVisibility, type ReadModelFreshness } from '@switchyard/projection';
import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueuePauseStreamId } from '../domain/pause/merge-queue-pause.stream';
import { MergeQueuePauseService } from './merge-queue-pause.service';
import { PAUSE_READ_MODELS } from './read-models';

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

function serviceWith(freshness: ReadModelFreshness) {
  const store = new InMemoryEventStore();
  const service = new MergeQueuePauseService(
    new CommandService(store),
    freshness,
    {} as SqlExecutor,
    new FixedClock(new Date('2026-03-02T10:00:00Z')),
    { processorsFor: (key) => (key === repository ? [EFFECTS] : []) },
  );
  return { store, service };
}

describe('MergeQueuePauseService: a pause answers once the merges are fenced', () => {
  it('waits until the repository’s effects processor has passed the pause event, after the read models', async () => {
    const freshness = new SteppedFreshness(new Set());
    const { store, service } = serviceWith(freshness);

    await service.pause(repository, 'release', actor);

    const [paused] = (await store.readStream(mergeQueuePauseStreamId(repository))).events;
    expect(freshness.waits).toEqual([
      { readModels: PAUSE_READ_MODELS, position: paused!.position },
      { readModels: [EFFECTS], position: paused!.position },
    ]);
  });

  it('answers as not yet in force (202) when the effects processor has not passed the pause in time', async () => {
    const { service } = serviceWith(new SteppedFreshness(new Set([EFFECTS])));
    const visibility = new WriteVisibility();

    const pause = await recordingWriteVisibility(visibility, () =>
      service.pause(repository, 'release', actor),
    );

    expect(pause.reason).toBe('release');
    expect(visibility.notYetVisibleIn).toEqual([EFFECTS]);
  });

  it('does not wait for the effects to unpause: lifting a pause fences nothing', async () => {
    const freshness = new SteppedFreshness(new Set());
    const { service } = serviceWith(freshness);
    await service.pause(repository, 'release', actor);
    freshness.waits.length = 0;

    await service.unpause(repository, actor);

    expect(freshness.waits.map((wait) => wait.readModels)).toEqual([PAUSE_READ_MODELS]);
  });
});
