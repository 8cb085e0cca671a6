import { nextWakeAt } from './planner';
import type { QueueState } from './state';

/** What the engine's timer does for one queue when it looks at it. */
export interface TimerVisit {
  /** A decision is due (batch_max_wait_time ran out, checks timed out): issue a tick. */
  tick: boolean;
  /** Let the freeze calendar judge the queued pull requests again (a window opens or closes). */
  refreshFreezes: boolean;
}

/**
 * The timer's decision for one queue at `now`, pure so that it is tested with the planner it
 * relies on. A queue without pull requests has nothing timed and no one for a freeze to hold.
 */
export function timerVisit(state: QueueState, now: number): TimerVisit {
  if (Object.keys(state.pullRequests).length === 0) return { tick: false, refreshFreezes: false };
  const wake = nextWakeAt(state, now);
  return { tick: wake !== null && wake <= now, refreshFreezes: true };
}
