import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import { nextWakeAt } from '../domain/planner';
import type { FreezeWatch } from './freeze-watch';
import type { QueueDesk } from './queue-desk';
import { occupiedQueuesOf } from './queues.projection';

/**
 * The engine's clock: every interval (a periodic processor of the runtime, lease-held and fenced,
 * one per partition of the repositories) it ticks each queue whose planner asked to be woken
 * (batch_max_wait_time, checks_timeout, a postponed merge) and lets the freeze calendar re-judge
 * its pull requests (a window opens or closes). Only queues holding pull requests are visited: an
 * empty queue has no timer and no one for a freeze to hold. Tick and freeze commands are decided
 * on the stream's current state, so two timers racing each other decide nothing twice.
 */
export class QueueTimer {
  constructor(
    private readonly deps: {
      desk: QueueDesk;
      freezes: FreezeWatch;
      sql: SqlQueryable;
      clock: Clock;
      /** The repositories this timer keeps (its partition's); every one by default. */
      owns?: (repository: string) => boolean;
    },
  ) {}

  async tickAll(): Promise<void> {
    const { desk, freezes, sql, clock, owns } = this.deps;
    for (const queue of await occupiedQueuesOf(sql)) {
      if (owns && !owns(queue.repository)) continue;
      const { state } = await desk.state(queue.repository, queue.baseRef);
      if (Object.keys(state.pullRequests).length === 0) continue;
      const now = clock.now().getTime();
      const wake = nextWakeAt(state, now);
      if (wake !== null && wake <= now)
        await desk.issue({ kind: 'tick', repository: queue.repository, baseRef: queue.baseRef, at: now });
      await freezes.refresh(queue.repository, queue.baseRef);
    }
  }
}
