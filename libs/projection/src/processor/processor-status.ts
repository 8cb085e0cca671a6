import type { Position } from '@switchyard/event-store';

export type RunnerState =
  | 'stopped'
  | 'waiting-for-lock'
  | 'starting'
  /** Building a new version of its read model beside the one serving (blue-green). */
  | 'rebuilding'
  | 'catching-up'
  | 'live'
  | 'failing'
  /** Stopped for good on an event it could not handle; see failedOn. */
  | 'failed';

/** The event a processor stopped on, and why: what the log line and /readyz name. */
export interface FailedEvent {
  type: string;
  streamId: string;
  revision: string;
  position: Position;
  error: string;
  attempts: number;
}

/** What /readyz and the `status` command show for one processor. */
export interface ProcessorStatus {
  name: string;
  kind: 'projection' | 'reactor' | 'periodic';
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
  /** Set once it has stopped for good; null otherwise. */
  failedOn: FailedEvent | null;
}

export const describeFailedEvent = (processor: string, failed: FailedEvent): string =>
  `${processor} stopped on ${failed.type} (stream ${failed.streamId}, revision ${failed.revision}, ` +
  `position ${failed.position}) after ${failed.attempts} attempts: ${failed.error}`;
