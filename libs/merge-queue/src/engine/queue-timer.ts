import type { Logger } from '@switchyard/kernel';
import type { Clock } from '@switchyard/kernel';
import type { CommandIssuer } from '@switchyard/projection';
import type { SqlQueryable } from '@switchyard/sql';
import { timerVisit } from '../domain/timer-visit';
import type { FreezeWatch } from './freeze-watch';
import type { QueueDesk } from './queue-desk';
import { occupiedQueuesOf } from './queues.projection';

/**
 * The engine's clock: every interval (a periodic processor of the runtime, lease-held and fenced,
 * one per partition of the repositories) it visits each queue that holds pull requests and does
 * what timerVisit decides: a tick when the planner has a decision due (batch_max_wait_time,
 * checks_timeout, a postponed merge), and the freeze calendar's judgement (a window opens or
 * closes). Only queues holding pull requests are visited: an empty queue has no timer and no one
 * for a freeze to hold. Tick and freeze commands are decided on the stream's current state, so two
 * timers racing each other decide nothing twice. One queue that fails is logged and left for the
 * next round; the others are visited all the same.
 */
export class QueueTimer {
  constructor(
    private readonly deps: {
      desk: QueueDesk;
      /** Every command of the timer goes through it, fenced by the timer's ownership. */
      issuer: CommandIssuer;
      freezes: FreezeWatch;
      sql: SqlQueryable;
      clock: Clock;
      logger: Pick<Logger, 'warn'>;
      /** The repositories this timer keeps (its partition's); every one by default. */
      owns?: (repository: string) => boolean;
    },
  ) {}

  async tickAll(): Promise<void> {
    const { sql, logger, owns } = this.deps;
    for (const queue of await occupiedQueuesOf(sql)) {
      if (owns && !owns(queue.repository)) continue;
      try {
        await this.visit(queue.repository, queue.baseRef);
      } catch (error) {
        logger.warn(
          { err: error, repository: queue.repository, baseRef: queue.baseRef },
          'merge-queue timer failed on a queue',
        );
      }
    }
  }

  private async visit(repository: string, baseRef: string): Promise<void> {
    const { desk, issuer, freezes, clock } = this.deps;
    const { state } = await desk.state(repository, baseRef);
    const now = clock.now().getTime();
    const visit = timerVisit(state, now);
    if (visit.tick) await desk.issue(issuer, { kind: 'tick', repository, baseRef, at: now });
    if (visit.refreshFreezes) await freezes.refresh(issuer, repository, baseRef);
  }
}
