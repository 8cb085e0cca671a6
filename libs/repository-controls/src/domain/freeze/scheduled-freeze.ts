import {
  type Actor,
  badRequest,
  checkStorableString,
  conflict,
  type Decider,
  DomainError,
  hasBegunAt,
  isInForceAt,
  notFound,
  renderNaive,
} from '@switchyard/kernel';
import type { Condition } from '../conditions/condition';
import { recordedAt } from '../stream-time';
import {
  type FreezeAttributes,
  type FreezeWindow,
  freezeAttributes,
  sameAttributes,
} from './freeze-attributes';
import {
  checkConditions,
  checkEndAfterStart,
  checkNaive,
  checkReason,
  checkTimezone,
  resolveStorable,
} from './freeze-rules';
import { truncateToSecond } from './truncate-to-second';

/*
 * One scheduled freeze, as one aggregate: its commands, its events, its errors, its state, the
 * decider and the stream it lives on. The rules it checks with are beside it (freeze-rules.ts,
 * freeze-attributes.ts).
 */

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

/** One stream per freeze: freezes of one repository never contend with each other. */
export const scheduledFreezeStreamId = (freezeId: string): string =>
  `scheduled_freeze-${freezeId.toLowerCase()}`;

export const FREEZE_NOT_FOUND_MESSAGE = 'The scheduled freeze with the given id does not exist';

/** The detail the CLI shows verbatim (client-contract E9). */
export const START_ALREADY_PASSED_MESSAGE =
  'The scheduled freeze `start` attribute cannot be updated, because the scheduled freeze has already started';

/**
 * Deleting a freeze that is in force needs a reason. Real clients send `{}` when the user gave none;
 * that is fine for a freeze not in force, and for one in force the edge answers the same 422 a missing
 * required field gets (client-contract E10), hence a dedicated error naming the field.
 */
export class DeleteReasonRequiredError extends DomainError {
  readonly field = 'delete_reason';
  constructor() {
    super('unprocessable', 'A delete_reason is required to delete a scheduled freeze that is in force');
    this.name = 'DeleteReasonRequiredError';
  }
}

export interface ScheduledFreeze extends FreezeWindow {
  id: string;
  repository: string;
  attributes: FreezeAttributes;
}

/**
 * A cancelled freeze is gone: every later command on it answers 404. lastAt is the time of the
 * stream's last event, so later events never go back in time.
 */
export type ScheduledFreezeState =
  | { status: 'unknown' }
  | { status: 'scheduled'; freeze: ScheduledFreeze; lastAt: string }
  | { status: 'cancelled' };

/** A start as given (naive text, or null = now), resolved in the freeze's timezone. */
function resolveStart(start: string | null, timezone: string, at: Date): { naive: string; instant: Date } {
  if (start === null) {
    // Keep the real instant: rendering "now" naive and resolving it back could land an hour off in a
    // DST overlap, and "start now" must mean now.
    const instant = truncateToSecond(at);
    return { naive: renderNaive(instant, timezone), instant };
  }
  const naive = checkNaive('start', start);
  return { naive, instant: resolveStorable('start', naive, timezone) };
}

function resolveEnd(end: string | null, timezone: string): { naive: string | null; instant: Date | null } {
  if (end === null) return { naive: null, instant: null };
  const naive = checkNaive('end', end);
  return { naive, instant: resolveStorable('end', naive, timezone) };
}

function schedule(command: ScheduleFreeze, state: ScheduledFreezeState): ScheduledFreezeEvent[] {
  if (state.status !== 'unknown') throw conflict('A scheduled freeze with this id already exists');
  checkStorableString('repository', command.repository);
  const timezone = checkTimezone(command.timezone);
  const start = resolveStart(command.start, timezone, command.at);
  const end = resolveEnd(command.end, timezone);
  checkEndAfterStart(start.instant, end.instant);
  const attributes = freezeAttributes({
    reason: checkReason('reason', command.reason),
    start: start.naive,
    end: end.naive,
    timezone,
    matchingConditions: checkConditions('matching_conditions', command.matchingConditions),
    excludeConditions: checkConditions('exclude_conditions', command.excludeConditions),
  });
  return [
    {
      type: 'scheduled_freeze.scheduled',
      data: {
        freezeId: command.freezeId,
        repository: command.repository,
        attributes,
        startAt: start.instant.toISOString(),
        endAt: end.instant?.toISOString() ?? null,
        actor: command.actor,
        at: command.at.toISOString(),
      },
    },
  ];
}

/** The freeze a command addresses, and the time to record the command at. */
function existing(
  state: ScheduledFreezeState,
  command: ChangeFreeze | CancelFreeze,
): { freeze: ScheduledFreeze; at: Date } {
  // A freeze addressed through another repository's path does not exist there.
  if (state.status !== 'scheduled' || state.freeze.repository !== command.repository) {
    throw notFound(FREEZE_NOT_FOUND_MESSAGE);
  }
  return { freeze: state.freeze, at: recordedAt(command.at, state.lastAt) };
}

function change(command: ChangeFreeze, state: ScheduledFreezeState): ScheduledFreezeEvent[] {
  const { freeze, at } = existing(state, command);
  const { changes } = command;
  const before = freeze.attributes;
  const timezone = changes.timezone === undefined ? before.timezone : checkTimezone(changes.timezone);
  const timezoneChanged = timezone !== before.timezone;

  // An untouched start (absent, or the same wall-clock text sent back) keeps its recorded instant
  // unless the zone moves it: re-resolving could land elsewhere in a DST overlap.
  const startTouched =
    changes.start !== undefined &&
    (changes.start === null || checkNaive('start', changes.start) !== before.start);
  const start = startTouched
    ? resolveStart(changes.start!, timezone, at)
    : {
        naive: before.start,
        instant: timezoneChanged
          ? resolveStorable('timezone', before.start, timezone)
          : new Date(freeze.startAt),
      };
  if (hasBegunAt(freeze, at) && start.instant.getTime() !== Date.parse(freeze.startAt)) {
    throw badRequest(START_ALREADY_PASSED_MESSAGE);
  }

  const end =
    changes.end !== undefined
      ? resolveEnd(changes.end, timezone)
      : timezoneChanged && before.end !== null
        ? { naive: before.end, instant: resolveStorable('timezone', before.end, timezone) }
        : { naive: before.end, instant: freeze.endAt === null ? null : new Date(freeze.endAt) };
  checkEndAfterStart(start.instant, end.instant);

  const after = freezeAttributes({
    reason: changes.reason === undefined ? before.reason : checkReason('reason', changes.reason),
    start: start.naive,
    end: end.naive,
    timezone,
    matchingConditions:
      changes.matchingConditions === undefined
        ? before.matchingConditions
        : checkConditions('matching_conditions', changes.matchingConditions),
    excludeConditions:
      changes.excludeConditions === undefined
        ? before.excludeConditions
        : checkConditions('exclude_conditions', changes.excludeConditions),
  });
  const startAt = start.instant.toISOString();
  const endAt = end.instant?.toISOString() ?? null;
  if (sameAttributes(before, after) && startAt === freeze.startAt && endAt === freeze.endAt) return [];
  return [
    {
      type: 'scheduled_freeze.changed',
      data: {
        freezeId: freeze.id,
        repository: freeze.repository,
        before,
        after,
        startAt,
        endAt,
        actor: command.actor,
        at: at.toISOString(),
      },
    },
  ];
}

function cancel(command: CancelFreeze, state: ScheduledFreezeState): ScheduledFreezeEvent[] {
  const { freeze, at } = existing(state, command);
  if (command.deleteReason === null && isInForceAt(freeze, at)) throw new DeleteReasonRequiredError();
  if (command.deleteReason !== null) checkReason('delete_reason', command.deleteReason);
  return [
    {
      type: 'scheduled_freeze.cancelled',
      data: {
        freezeId: freeze.id,
        repository: freeze.repository,
        attributes: freeze.attributes,
        reason: command.deleteReason,
        actor: command.actor,
        at: at.toISOString(),
      },
    },
  ];
}

export const scheduledFreezeDecider: Decider<
  ScheduledFreezeState,
  ScheduledFreezeCommand,
  ScheduledFreezeEvent
> = {
  initialState: () => ({ status: 'unknown' }),

  decide(command, state) {
    switch (command.type) {
      case 'ScheduleFreeze':
        return schedule(command, state);
      case 'ChangeFreeze':
        return change(command, state);
      case 'CancelFreeze':
        return cancel(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'scheduled_freeze.scheduled':
      case 'scheduled_freeze.changed': {
        const { freezeId, repository, startAt, endAt } = event.data;
        const attributes =
          event.type === 'scheduled_freeze.scheduled' ? event.data.attributes : event.data.after;
        const freeze = { id: freezeId, repository, attributes, startAt, endAt };
        return { status: 'scheduled', freeze, lastAt: event.data.at };
      }
      case 'scheduled_freeze.cancelled':
        return { status: 'cancelled' };
      default:
        return state;
    }
  },
};
