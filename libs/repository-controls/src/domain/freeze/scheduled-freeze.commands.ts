import type { Actor } from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';

export interface ScheduleFreeze {
  type: 'ScheduleFreeze';
  freezeId: string;
  repository: string;
  reason: string;
  /** Naive wall-clock time in `timezone`; null = now. */
  start: string | null;
  /** Naive wall-clock time in `timezone`; null = indefinite. */
  end: string | null;
  timezone: string;
  matchingConditions: Condition[];
  excludeConditions: Condition[];
  actor: Actor;
  at: Date;
}

/** Only the keys present change; `start: null` = now, `end: null` = indefinite. */
export interface FreezeChanges {
  reason?: string;
  start?: string | null;
  end?: string | null;
  timezone?: string;
  matchingConditions?: Condition[];
  excludeConditions?: Condition[];
}

export interface ChangeFreeze {
  type: 'ChangeFreeze';
  freezeId: string;
  repository: string;
  changes: FreezeChanges;
  actor: Actor;
  at: Date;
}

export interface CancelFreeze {
  type: 'CancelFreeze';
  freezeId: string;
  repository: string;
  deleteReason: string | null;
  actor: Actor;
  at: Date;
}

export type ScheduledFreezeCommand = ScheduleFreeze | ChangeFreeze | CancelFreeze;
