import type { Clock } from '@switchyard/kernel';
import type { SqlQueryable } from '@switchyard/sql';
import { nextWakeAt } from '../domain/planner';
import type { FreezeWatch } from './freeze-watch';
import type { QueueDesk } from './queue-desk';
import { occupiedQueuesOf } from './queues.projection';

interface Logger {
  warn(object: object, message: string): void;
}

/**
 * The engine's clock: every interval it ticks each queue whose planner asked to be woken
 * (batch_max_wait_time, checks_timeout, a postponed merge) and lets the freeze calendar re-judge
 * its pull requests (a window opens or closes). Only queues holding pull requests are visited: an
 * empty queue has no timer and no one for a freeze to hold. Tick and freeze commands are decided
 * on the stream's current state, so two timers racing each other decide nothing twice.
 */
export class QueueTimer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: {
      desk: QueueDesk;
      freezes: FreezeWatch;
      sql: SqlQueryable;
      clock: Clock;
      logger: Logger;
      intervalMs: number;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.tickAll()
        .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'merge-queue timer failed'))
        .finally(() => {
          this.running = null;
        });
    }, this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  async tickAll(): Promise<void> {
    const { desk, freezes, sql, clock } = this.deps;
    for (const queue of await occupiedQueuesOf(sql)) {
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
