import type { EventStore } from '@switchyard/event-store';
import { queueWorkload, type WorkloadAppend } from '@switchyard/merge-queue/testing';

export interface SeedPlan {
  repository: string;
  events: number;
}

export interface SeedResult {
  events: number;
  appends: number;
  seconds: number;
  /** Pull request numbers that entered the queue, per repository (a sample for filtered queries). */
  pullRequests: Map<string, number[]>;
}

/**
 * Appends each repository's history through the event store, the way the queue engine will: one
 * append per batch, on the batch's stream. Repositories are interleaved in proportion to their
 * size so the feed runs roughly in time order, and several appenders run at once.
 */
export async function seedEvents(
  store: EventStore,
  plans: readonly SeedPlan[],
  window: { from: Date; to: Date },
  onProgress: (events: number) => void,
): Promise<SeedResult> {
  const started = performance.now();
  const generators = plans.map((plan, index) => ({
    plan,
    weight: plan.events / Math.min(...plans.map((p) => p.events)),
    credit: 0,
    iterator: queueWorkload({
      repository: plan.repository,
      seed: 1000 + index,
      ...window,
      events: plan.events,
    }),
    done: false,
  }));
  const pullRequests = new Map<string, number[]>(plans.map((plan) => [plan.repository, []]));

  function* interleaved(): Generator<WorkloadAppend> {
    while (generators.some((g) => !g.done)) {
      for (const generator of generators) {
        if (generator.done) continue;
        generator.credit += generator.weight;
        while (generator.credit >= 1) {
          generator.credit -= 1;
          const next = generator.iterator.next();
          if (next.done) {
            generator.done = true;
            break;
          }
          yield next.value;
        }
      }
    }
  }

  const source = interleaved();
  let events = 0;
  let appends = 0;
  let reported = 0;
  const appender = async () => {
    for (let next = source.next(); !next.done; next = source.next()) {
      const batch = next.value;
      for (const event of batch.events) {
        if (event.type === 'merge_queue.pull_request_entered') {
          const sample = pullRequests.get(event.data.repository)!;
          if (sample.length < 5000) sample.push(event.data.pullRequest);
        }
      }
      await store.appendToStream(batch.streamId, batch.events, { expectedRevision: 'any' });
      events += batch.events.length;
      appends++;
      if (events - reported >= 50_000) {
        reported = events;
        onProgress(events);
      }
    }
  };
  await Promise.all(Array.from({ length: 4 }, appender));
  return { events, appends, seconds: (performance.now() - started) / 1000, pullRequests };
}
