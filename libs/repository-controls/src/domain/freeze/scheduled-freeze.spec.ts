import { type Actor, DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import type { FreezeAttributes } from './freeze-attributes';
import {
  type ChangeFreeze,
  DeleteReasonRequiredError,
  FREEZE_NOT_FOUND_MESSAGE,
  type FreezeChanges,
  scheduledFreezeDecider,
  type ScheduledFreezeEvent,
  type ScheduleFreeze,
  START_ALREADY_PASSED_MESSAGE,
} from './scheduled-freeze';

const spec = DeciderSpecification.for(scheduledFreezeDecider);
const repository = 'acme/widgets';
const freezeId = '11111111-2222-3333-4444-555555555555';
const alice: Actor = { type: 'user', id: 42, name: 'alice' };
const bot: Actor = { type: 'application', id: 'c0ffee00-0000-4000-8000-000000000001', name: 'release bot' };

const created = new Date('2026-06-01T09:00:00Z');
const beforeStart = new Date('2026-06-30T12:00:00Z');
const duringFreeze = new Date('2026-07-01T10:00:00Z');
const afterEnd = new Date('2026-07-03T00:00:00Z');

const schedule = (overrides: Partial<ScheduleFreeze> = {}): ScheduleFreeze => ({
  type: 'ScheduleFreeze',
  freezeId,
  repository,
  reason: 'release 4.2',
  start: '2026-07-01T09:00:00',
  end: '2026-07-02T18:00:00',
  timezone: 'Europe/Paris',
  matchingConditions: ['base=main'],
  excludeConditions: ['label=hotfix'],
  actor: alice,
  at: created,
  ...overrides,
});

const attributes: FreezeAttributes = {
  reason: 'release 4.2',
  start: '2026-07-01T09:00:00',
  end: '2026-07-02T18:00:00',
  timezone: 'Europe/Paris',
  matchingConditions: ['base=main'],
  excludeConditions: ['label=hotfix'],
};

// Paris is UTC+2 in summer.
const scheduled: ScheduledFreezeEvent = {
  type: 'scheduled_freeze.scheduled',
  data: {
    freezeId,
    repository,
    attributes,
    startAt: '2026-07-01T07:00:00.000Z',
    endAt: '2026-07-02T16:00:00.000Z',
    actor: alice,
    at: created.toISOString(),
  },
};

const change = (changes: FreezeChanges, at: Date, actor: Actor = bot): ChangeFreeze => ({
  type: 'ChangeFreeze',
  freezeId,
  repository,
  changes,
  actor,
  at,
});

const changed = (
  after: FreezeAttributes,
  startAt: string,
  endAt: string | null,
  at: Date,
): ScheduledFreezeEvent => ({
  type: 'scheduled_freeze.changed',
  data: { freezeId, repository, before: attributes, after, startAt, endAt, actor: bot, at: at.toISOString() },
});

const expectKind = (error: Error, kind: DomainError['kind']) =>
  expect((error as DomainError).kind).toBe(kind);

describe('scheduled freeze decider', () => {
  describe('scheduling', () => {
    it('records the attributes as given and the instants resolved in the freeze timezone', () =>
      spec.given([]).when(schedule()).then([scheduled]));

    it('start null means now, rendered naive in the freeze timezone at seconds precision', () =>
      spec
        .given([])
        .when(
          schedule({
            start: null,
            end: null,
            timezone: 'America/New_York',
            at: new Date('2026-01-15T15:04:05.678Z'),
          }),
        )
        .then([
          {
            type: 'scheduled_freeze.scheduled',
            data: {
              freezeId,
              repository,
              attributes: {
                ...attributes,
                start: '2026-01-15T10:04:05',
                end: null,
                timezone: 'America/New_York',
              },
              startAt: '2026-01-15T15:04:05.000Z',
              endAt: null,
              actor: alice,
              at: '2026-01-15T15:04:05.678Z',
            },
          },
        ]));

    it('start null in a DST overlap keeps the real instant, not the later reading of the wall clock', () => {
      // 00:45Z on 2026-10-25 is 02:45 CEST, the first of the two 02:45s Paris shows that night.
      const at = new Date('2026-10-25T00:45:00Z');
      spec
        .given([])
        .when(schedule({ start: null, end: null, at }))
        .then([
          {
            type: 'scheduled_freeze.scheduled',
            data: {
              freezeId,
              repository,
              attributes: { ...attributes, start: '2026-10-25T02:45:00', end: null },
              startAt: '2026-10-25T00:45:00.000Z',
              endAt: null,
              actor: alice,
              at: at.toISOString(),
            },
          },
        ]);
    });

    it('keeps seconds precision and the canonical T separator', () =>
      spec
        .given([])
        .when(schedule({ start: '2026-07-01 09:00:00.999', end: '2026-07-02T18:00' }))
        .then([scheduled]));

    it('echoes condition objects exactly as received', () => {
      const matchingConditions = [
        { or: ['base=main', { and: ['base~=^release/', '-draft'] }] },
        'label!=skip',
      ];
      const excludeConditions = [{ not: 'author=alice' }];
      const [event] = scheduledFreezeDecider.decide(schedule({ matchingConditions, excludeConditions }), {
        status: 'unknown',
      });
      expect(event!.type === 'scheduled_freeze.scheduled' && event!.data.attributes).toEqual({
        ...attributes,
        matchingConditions,
        excludeConditions,
      });
    });

    it.each([
      ['an unknown timezone', { timezone: 'Mars/Olympus_Mons' }, /timezone/],
      ['an offset instead of a zone', { timezone: '+02:00' }, /timezone/],
      [
        'a start with a Z',
        { start: '2026-07-01T09:00:00Z' },
        /`start` must be a date-time without timezone offset/,
      ],
      ['a start with an offset', { start: '2026-07-01T09:00:00+02:00' }, /without timezone offset/],
      ['an end with an offset', { end: '2026-07-02T18:00:00-05:00' }, /`end` must be a date-time without/],
      ['a date that does not exist', { start: '2026-02-30T09:00:00' }, /ISO 8601/],
      ['a start that is not a date', { start: 'tomorrow' }, /ISO 8601/],
      ['an end equal to the start', { end: '2026-07-01T09:00:00' }, /`end` must be after/],
      ['an end before the start', { end: '2026-06-30T09:00:00' }, /`end` must be after/],
      [
        'an end before now when starting now',
        { start: null, end: '2026-06-01T10:00:00' },
        /`end` must be after/,
      ],
      ['a reason over 10000 characters', { reason: 'x'.repeat(10001) }, /at most 10000/],
      ['an empty condition', { matchingConditions: [' '] }, /matching_conditions\[0\]: .*Condition empty/],
      [
        'a group with two keys',
        { excludeConditions: [{ and: ['a'], or: ['b'] } as never] },
        /exclude_conditions\[0\]/,
      ],
    ])('refuses %s with 422', (_, overrides, message) => {
      const error = spec.given([]).when(schedule(overrides)).thenThrows(DomainError, message);
      expectKind(error, 'unprocessable');
    });

    it('accepts a reason of exactly 10000 code points', () =>
      expect(
        scheduledFreezeDecider.decide(schedule({ reason: '❄'.repeat(10000) }), { status: 'unknown' }),
      ).toHaveLength(1));

    it('refuses an id that already exists', () => {
      const error = spec.given([scheduled]).when(schedule()).thenThrows(DomainError);
      expectKind(error, 'conflict');
    });
  });

  describe('changing a freeze that has not begun', () => {
    it('changes only the fields sent', () =>
      spec
        .given([scheduled])
        .when(change({ reason: 'release 4.3' }, beforeStart))
        .then([
          changed(
            { ...attributes, reason: 'release 4.3' },
            scheduled.data.startAt,
            scheduled.data.endAt,
            beforeStart,
          ),
        ]));

    it('moves the start', () =>
      spec
        .given([scheduled])
        .when(change({ start: '2026-07-01T12:00:00' }, beforeStart))
        .then([
          changed(
            { ...attributes, start: '2026-07-01T12:00:00' },
            '2026-07-01T10:00:00.000Z',
            scheduled.data.endAt,
            beforeStart,
          ),
        ]));

    it('start null starts it now', () =>
      spec
        .given([scheduled])
        .when(change({ start: null }, beforeStart))
        .then([
          changed(
            { ...attributes, start: '2026-06-30T14:00:00' },
            '2026-06-30T12:00:00.000Z',
            scheduled.data.endAt,
            beforeStart,
          ),
        ]));

    it('a new timezone keeps the wall-clock times and moves the instants', () =>
      spec
        .given([scheduled])
        .when(change({ timezone: 'America/New_York' }, beforeStart))
        .then([
          changed(
            { ...attributes, timezone: 'America/New_York' },
            '2026-07-01T13:00:00.000Z',
            '2026-07-02T22:00:00.000Z',
            beforeStart,
          ),
        ]));

    it('end null makes it indefinite, and [] clears a condition list', () =>
      spec
        .given([scheduled])
        .when(change({ end: null, excludeConditions: [] }, beforeStart))
        .then([
          changed(
            { ...attributes, end: null, excludeConditions: [] },
            scheduled.data.startAt,
            null,
            beforeStart,
          ),
        ]));

    it('refuses a start moved past the end', () => {
      const error = spec
        .given([scheduled])
        .when(change({ start: '2026-07-03T00:00:00' }, beforeStart))
        .thenThrows(DomainError, /`end` must be after/);
      expectKind(error, 'unprocessable');
    });

    it('records nothing when nothing changes', () =>
      spec
        .given([scheduled])
        .when(change({ reason: 'release 4.2', start: '2026-07-01T09:00:00' }, beforeStart))
        .thenNothingHappened());

    it('records nothing for an empty change', () =>
      spec.given([scheduled]).when(change({}, beforeStart)).thenNothingHappened());
  });

  describe('changing a freeze that has begun', () => {
    it.each([
      ['a new start', { start: '2026-07-01T11:00:00' }],
      ['start null', { start: null }],
      ['a timezone that moves the start', { timezone: 'UTC' }],
    ])('refuses %s with 400 and the detail the CLI shows', (_, changes: FreezeChanges) => {
      const error = spec
        .given([scheduled])
        .when(change(changes, duringFreeze))
        .thenThrows(DomainError, START_ALREADY_PASSED_MESSAGE);
      expectKind(error, 'bad_request');
    });

    it('counts the start instant itself as begun', () => {
      spec
        .given([scheduled])
        .when(change({ start: '2026-07-01T10:00:00' }, new Date(scheduled.data.startAt)))
        .thenThrows(DomainError, START_ALREADY_PASSED_MESSAGE);
    });

    it('accepts the unchanged start sent back with other changes', () =>
      spec
        .given([scheduled])
        .when(change({ start: '2026-07-01T09:00:00', end: '2026-07-05T18:00:00' }, duringFreeze))
        .then([
          changed(
            { ...attributes, end: '2026-07-05T18:00:00' },
            scheduled.data.startAt,
            '2026-07-05T16:00:00.000Z',
            duringFreeze,
          ),
        ]));

    it('takes the echoed start of a freeze started in a DST overlap as unchanged', () => {
      // Started "now" at the first 02:45 of the night (CEST); the echoed text alone would read as CET.
      const startedNow: ScheduledFreezeEvent = {
        type: 'scheduled_freeze.scheduled',
        data: {
          ...scheduled.data,
          attributes: { ...attributes, start: '2026-10-25T02:45:00', end: null },
          startAt: '2026-10-25T00:45:00.000Z',
          endAt: null,
        },
      };
      spec
        .given([startedNow])
        .when(
          change({ start: '2026-10-25T02:45:00', reason: 'same start' }, new Date('2026-10-25T00:50:00Z')),
        )
        .then([
          {
            type: 'scheduled_freeze.changed',
            data: {
              freezeId,
              repository,
              before: startedNow.data.attributes,
              after: { ...startedNow.data.attributes, reason: 'same start' },
              startAt: '2026-10-25T00:45:00.000Z',
              endAt: null,
              actor: bot,
              at: '2026-10-25T00:50:00.000Z',
            },
          },
        ]);
    });

    it('accepts a timezone that names the same offset', () =>
      spec
        .given([scheduled])
        .when(change({ timezone: 'Europe/Berlin' }, duringFreeze))
        .then([
          changed(
            { ...attributes, timezone: 'Europe/Berlin' },
            scheduled.data.startAt,
            scheduled.data.endAt,
            duringFreeze,
          ),
        ]));

    it('changes reason, end and conditions', () =>
      spec
        .given([scheduled])
        .when(
          change(
            { reason: 'extended', end: null, matchingConditions: ['base=main', 'base=next'] },
            duringFreeze,
          ),
        )
        .then([
          changed(
            { ...attributes, reason: 'extended', end: null, matchingConditions: ['base=main', 'base=next'] },
            scheduled.data.startAt,
            null,
            duringFreeze,
          ),
        ]));
  });

  describe('cancelling', () => {
    const cancel = (deleteReason: string | null, at: Date) =>
      ({ type: 'CancelFreeze', freezeId, repository, deleteReason, actor: bot, at }) as const;
    const cancelled = (reason: string | null, at: Date): ScheduledFreezeEvent => ({
      type: 'scheduled_freeze.cancelled',
      data: { freezeId, repository, attributes, reason, actor: bot, at: at.toISOString() },
    });

    it('records the delete reason and the last attributes', () =>
      spec
        .given([scheduled])
        .when(cancel('audit-trail', duringFreeze))
        .then([cancelled('audit-trail', duringFreeze)]));

    it('accepts no reason for a freeze that has not begun', () =>
      spec
        .given([scheduled])
        .when(cancel(null, beforeStart))
        .then([cancelled(null, beforeStart)]));

    it('accepts no reason for a freeze that has ended', () =>
      spec
        .given([scheduled])
        .when(cancel(null, afterEnd))
        .then([cancelled(null, afterEnd)]));

    it('requires a reason for a freeze in force', () => {
      const error = spec
        .given([scheduled])
        .when(cancel(null, duringFreeze))
        .thenThrows(DeleteReasonRequiredError);
      expectKind(error, 'unprocessable');
      expect((error as DeleteReasonRequiredError).field).toBe('delete_reason');
    });

    it('never records a time before the event it follows', () =>
      spec
        .given([scheduled])
        .when(cancel('raced', new Date('2026-06-01T08:59:59Z')))
        .then([cancelled('raced', created)]));

    it('makes the freeze disappear for every later command', () => {
      const history = [scheduled, cancelled('done', beforeStart)];
      spec
        .given(history)
        .when(cancel('again', beforeStart))
        .thenThrows(DomainError, FREEZE_NOT_FOUND_MESSAGE);
      spec
        .given(history)
        .when(change({ reason: 'x' }, beforeStart))
        .thenThrows(DomainError, FREEZE_NOT_FOUND_MESSAGE);
    });
  });

  describe('an id that is unknown here', () => {
    it.each([
      ['a change', change({ reason: 'x' }, beforeStart)],
      [
        'a cancel',
        {
          type: 'CancelFreeze',
          freezeId,
          repository,
          deleteReason: 'x',
          actor: bot,
          at: beforeStart,
        } as const,
      ],
    ])('answers 404 to %s on an unknown id', (_, command) => {
      const error = spec.given([]).when(command).thenThrows(DomainError, FREEZE_NOT_FOUND_MESSAGE);
      expectKind(error, 'not_found');
    });

    it('answers 404 through another repository', () => {
      const error = spec
        .given([scheduled])
        .when({ ...change({ reason: 'x' }, beforeStart), repository: 'acme/other' })
        .thenThrows(DomainError, FREEZE_NOT_FOUND_MESSAGE);
      expectKind(error, 'not_found');
    });
  });
});
