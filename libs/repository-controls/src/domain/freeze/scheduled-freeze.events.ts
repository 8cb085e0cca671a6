import type { Actor } from '@switchyard/kernel';
import type { FreezeAttributes } from './freeze-attributes';

/**
 * Domain events of one scheduled freeze. Each carries the repository key (the stream is per freeze),
 * the actor and the command time `at`, plus the resolved window so projections never re-resolve
 * naive times (a later tz database update must not move a recorded freeze).
 */
export interface ScheduledFreezeScheduled {
  type: 'scheduled_freeze.scheduled';
  data: {
    freezeId: string;
    repository: string;
    attributes: FreezeAttributes;
    startAt: string;
    endAt: string | null;
    actor: Actor;
    at: string;
  };
}

export interface ScheduledFreezeChanged {
  type: 'scheduled_freeze.changed';
  data: {
    freezeId: string;
    repository: string;
    before: FreezeAttributes;
    after: FreezeAttributes;
    startAt: string;
    endAt: string | null;
    actor: Actor;
    at: string;
  };
}

export interface ScheduledFreezeCancelled {
  type: 'scheduled_freeze.cancelled';
  data: {
    freezeId: string;
    repository: string;
    attributes: FreezeAttributes;
    /** null when the caller gave none (allowed only while the freeze is not in force). */
    reason: string | null;
    actor: Actor;
    at: string;
  };
}

export type ScheduledFreezeEvent =
  ScheduledFreezeScheduled | ScheduledFreezeChanged | ScheduledFreezeCancelled;

export const scheduledFreezeEventTypes: readonly ScheduledFreezeEvent['type'][] = [
  'scheduled_freeze.scheduled',
  'scheduled_freeze.changed',
  'scheduled_freeze.cancelled',
];
