import type { RecordedEvent } from '@switchyard/event-store';
import type { SwitchyardConfig } from '@switchyard/platform';
import { partitionName, partitionOf } from '@switchyard/projection';

/** The merge-queue engine's reactors, by the names they had before partitioning (their checkpoints). */
export const ENGINE_REACTORS = [
  'merge_queue.intake',
  'merge_queue.effects',
  'merge_queue.status_comments',
] as const;
export const ENGINE_TIMER = 'merge_queue.timer';
/** The reactor that performs the engine's merges: a pause waits for it (MergeFence). */
export const ENGINE_EFFECTS: (typeof ENGINE_REACTORS)[number] = 'merge_queue.effects';

/** Partitions of the engine's work where engines share Redis leases; a fixed number, which every process of a deployment derives alike. */
export const SHARED_ENGINE_PARTITIONS = 8;

/**
 * How the merge-queue engine's work is split between engine processes: by repository, into a
 * number of partitions, each with its reactors (own checkpoints) and its timer under one lease.
 * With Redis (engines that share leases) there are SHARED_ENGINE_PARTITIONS; without it one
 * process runs the engine (an advisory lock), so one partition keeps today's names.
 */
export class EngineLayout {
  constructor(readonly partitions: number) {}

  static of(config: Pick<SwitchyardConfig, 'redisUrl'>): EngineLayout {
    return new EngineLayout(config.redisUrl ? SHARED_ENGINE_PARTITIONS : 1);
  }

  /** The partition of a repository (`owner/name`, as the streams key it: lower case). */
  partitionOfRepository(repository: string): number {
    return partitionOf(repository.toLowerCase(), this.partitions);
  }

  /** The effects reactor's partition that performs this repository's merges. */
  effectsOf(repository: string): string {
    return partitionName(ENGINE_EFFECTS, this.partitionOfRepository(repository), this.partitions);
  }

  /** Every partition of the effects reactor. */
  effectsPartitions(): string[] {
    return Array.from({ length: this.partitions }, (_, index) =>
      partitionName(ENGINE_EFFECTS, index, this.partitions),
    );
  }

  /** The key every engine event is partitioned by: its repository. */
  readonly keyOf = (event: RecordedEvent): string => {
    const repository = (event.data as { repository?: unknown } | null)?.repository;
    return typeof repository === 'string' ? repository.toLowerCase() : event.streamId;
  };

  /** The lease group of an engine processor's name (its partition), null for a processor that is not the engine's. */
  readonly groupOf = (name: string): string | null => {
    for (const base of [...ENGINE_REACTORS, ENGINE_TIMER])
      for (let index = 0; index < this.partitions; index++)
        if (name === partitionName(base, index, this.partitions)) return `merge_queue.partition.${index}`;
    return null;
  };

  /** Every processor name of the engine: each reactor's partitions, then each partition's timer. */
  processorNames(): { name: string; kind: 'reactor' | 'periodic' }[] {
    const names: { name: string; kind: 'reactor' | 'periodic' }[] = [];
    for (const base of ENGINE_REACTORS)
      for (let index = 0; index < this.partitions; index++)
        names.push({ name: partitionName(base, index, this.partitions), kind: 'reactor' });
    for (let index = 0; index < this.partitions; index++)
      names.push({ name: partitionName(ENGINE_TIMER, index, this.partitions), kind: 'periodic' });
    return names;
  }
}
