import type { Position } from '@switchyard/event-store';

export type RunnerState = 'stopped' | 'waiting-for-lock' | 'starting' | 'catching-up' | 'live' | 'failing';

/** What /readyz and the `status` command show for one projection. */
export interface ProjectionStatus {
  name: string;
  version: number;
  state: RunnerState;
  /** The committed checkpoint; null until the runner has read it. */
  position: Position | 'start' | null;
  /** Not caught up since it started, or stuck retrying a failure. */
  lagging: boolean;
  /** The failure being retried right now; null once the work succeeds. */
  lastError: string | null;
  /** Consecutive failures of the work being retried. */
  failures: number;
}
