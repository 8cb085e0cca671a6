import { type Actor, InvalidFieldError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import { scheduledFreezeDecider, type ScheduledFreezeEvent, type ScheduleFreeze } from './scheduled-freeze';

/** The decider accepts only what every store can hold (issue 14 §1), naming the refused field. */
const spec = DeciderSpecification.for(scheduledFreezeDecider);
const freezeId = '11111111-2222-3333-4444-555555555555';
const alice: Actor = { type: 'user', id: 42, name: 'alice' };
const at = new Date('2026-03-01T00:00:00Z');

const schedule = (overrides: Partial<ScheduleFreeze> = {}): ScheduleFreeze => ({
  type: 'ScheduleFreeze',
  freezeId,
  repository: 'acme/widgets',
  reason: 'release',
  start: '2026-07-01T09:00:00',
  end: null,
  timezone: 'UTC',
  matchingConditions: [],
  excludeConditions: [],
  actor: alice,
  at,
  ...overrides,
});

const refusedField = (error: Error) => (error as InvalidFieldError).field;

describe('scheduled freeze decider: storable values only', () => {
  it.each([
    [
      'the year-0000 start of the report',
      { start: '0000-01-01T00:00:00', timezone: 'Europe/Paris' },
      'start',
    ],
    [
      'year 1 at midnight in Paris (year 0 in UTC)',
      { start: '0001-01-01T00:00:00', timezone: 'Europe/Paris' },
      'start',
    ],
    [
      'an end past year 9999 in New York',
      { start: null, end: '9999-12-31T23:00:00', timezone: 'America/New_York' },
      'end',
    ],
    ['a NUL in the reason', { reason: 'a\u0000b' }, 'reason'],
    ['a lone surrogate in the reason', { reason: '\ud800' }, 'reason'],
    ['a NUL in a nested condition', { matchingConditions: [{ not: 'base=\u0000' }] }, 'matching_conditions'],
    [
      'a lone surrogate in an exclude condition',
      { excludeConditions: ['label=\udc00'] },
      'exclude_conditions',
    ],
    ['a NUL in the repository', { repository: 'acme/\u0000' }, 'repository'],
  ])('refuses %s, naming the field', (_, overrides, field) => {
    const error = spec.given([]).when(schedule(overrides)).thenThrows(InvalidFieldError);
    expect(refusedField(error)).toBe(field);
  });

  it('accepts both ends of the range', () =>
    spec
      .given([])
      .when(schedule({ start: '0001-01-01T00:00:00', end: '9999-12-31T23:59:59' }))
      .then([
        {
          type: 'scheduled_freeze.scheduled',
          data: {
            freezeId,
            repository: 'acme/widgets',
            attributes: {
              reason: 'release',
              start: '0001-01-01T00:00:00',
              end: '9999-12-31T23:59:59',
              timezone: 'UTC',
              matchingConditions: [],
              excludeConditions: [],
            },
            startAt: '0001-01-01T00:00:00.000Z',
            endAt: '9999-12-31T23:59:59.000Z',
            actor: alice,
            at: at.toISOString(),
          },
        },
      ]));

  describe('on a freeze recorded at the very start of the range', () => {
    const scheduled: ScheduledFreezeEvent = {
      type: 'scheduled_freeze.scheduled',
      data: {
        freezeId,
        repository: 'acme/widgets',
        attributes: {
          reason: 'release',
          start: '0001-01-01T00:00:00',
          end: null,
          timezone: 'UTC',
          matchingConditions: [],
          excludeConditions: [],
        },
        startAt: '0001-01-01T00:00:00.000Z',
        endAt: null,
        actor: alice,
        at: at.toISOString(),
      },
    };
    const change = (changes: object) => ({
      type: 'ChangeFreeze' as const,
      freezeId,
      repository: 'acme/widgets',
      changes,
      actor: alice,
      at,
    });

    it('refuses a timezone that would move it out of range, naming the timezone', () => {
      const error = spec
        .given([scheduled])
        .when(change({ timezone: 'Europe/Paris' }))
        .thenThrows(InvalidFieldError);
      expect(refusedField(error)).toBe('timezone');
    });

    it('refuses a NUL in a new reason and in a delete reason', () => {
      const reason = spec
        .given([scheduled])
        .when(change({ reason: '\u0000' }))
        .thenThrows(InvalidFieldError);
      expect(refusedField(reason)).toBe('reason');
      const cancel = spec
        .given([scheduled])
        .when({
          type: 'CancelFreeze',
          freezeId,
          repository: 'acme/widgets',
          deleteReason: 'x\ud800',
          actor: alice,
          at,
        })
        .thenThrows(InvalidFieldError);
      expect(refusedField(cancel)).toBe('delete_reason');
    });
  });
});
