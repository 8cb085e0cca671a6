import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import type { Tick } from '../domain/commands';
import { mergeQueueDecider } from '../domain/decider';
import type { FreezeWatch } from './freeze-watch';
import type { QueueDesk } from './queue-desk';
import { occupiedQueuesOf } from './queues.projection';

/**
 * The engine's clock: every interval (a periodic processor of the runtime, lease-held and fenced,
 * one per partition of the repositories) it ticks each queue where time alone lets the planner
 * decide something (a batch that waited batch_max_wait_time, checks_timeout) and lets the freeze
 * calendar re-judge its pull requests (a window opens or closes). Only queues holding pull
 * requests are visited: an empty queue has no timer and no one for a freeze to hold. Tick and
 * freeze commands are decided on the stream's current state, so two timers racing each other
 * decide nothing twice.
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
      const tick: Tick = {
        kind: 'tick',
        repository: queue.repository,
        baseRef: queue.baseRef,
        at: clock.now().getTime(),
      };
      // Due when a tick now would decide something: asked of the decider itself, not of
      // nextWakeAt, which read at `now` no longer shows a batch wait that has just ended (the
      // planner has a step instead of a wake-up then), so a batch that did not fill never started.
      if (mergeQueueDecider.decide(tick, state).length > 0) await desk.issue(tick);
      await freezes.refresh(queue.repository, queue.baseRef);
    }
  }
}
