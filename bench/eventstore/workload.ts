import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@switchyard/event-store';

/** A merge-queue-sized event: the same shape is written by our store and by the raw baseline. */
export function benchEvent(sequence: number): NewEvent & { eventId: string } {
  return {
    eventId: randomUUID(),
    type: sequence % 5 === 0 ? 'PullRequestDequeued' : 'PullRequestQueued',
    data: {
      repository: 'acme/widgets',
      branch: 'main',
      pullRequest: 1000 + (sequence % 997),
      headSha: (sequence * 2_654_435_761).toString(16).padStart(40, '0').slice(0, 40),
      priority: 'medium',
    },
    metadata: { correlationId: randomUUID(), actor: 'bench' },
  };
}

export const batchOf = (size: number, start: number) =>
  Array.from({ length: size }, (_, i) => benchEvent(start + i));

/** Runs the two sides in alternating rounds so a load spike from a neighbour hits both alike. */
export async function alternate(
  rounds: number,
  ours: (round: number) => Promise<void>,
  raw: (round: number) => Promise<void>,
): Promise<{ oursMs: number; rawMs: number }> {
  let oursMs = 0;
  let rawMs = 0;
  for (let round = 0; round < rounds; round++) {
    oursMs += await timed(() => ours(round));
    rawMs += await timed(() => raw(round));
  }
  return { oursMs, rawMs };
}

export async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}
