import { parseSchedule } from '../syntax/values/schedule';
import { parseDateTimeInterval } from '../syntax/values/datetime-interval';
import { intervalHolds, nextIntervalChange } from './interval-clock';
import { nextScheduleChange, scheduleHolds, scheduleJson } from './schedule-clock';

const schedule = (text: string) => {
  const parsed = parseSchedule(text);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.schedule;
};
const interval = (text: string) => {
  const parsed = parseDateTimeInterval(text);
  if (!parsed.ok) throw new Error(parsed.detail);
  return parsed.interval;
};
const at = (iso: string) => new Date(iso);

describe('schedules against the clock', () => {
  it.each([
    // Paris office hours on both sides of the spring change (2026-03-29, CET → CEST).
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-27T07:59:59Z', false],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-27T08:00:00Z', true],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-27T16:00:59Z', true],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-27T16:01:00Z', false],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-30T06:59:59Z', false],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-30T07:00:00Z', true],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-30T15:00:59Z', true],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-30T15:01:00Z', false],
    // The skipped hour never happens: 02:00-02:30 does not hold on the day of the change.
    ['Sun 02:00-02:30[Europe/Paris]', '2026-03-29T00:59:59Z', false],
    ['Sun 02:00-02:30[Europe/Paris]', '2026-03-29T01:00:00Z', false],
    ['Sun 02:00-02:30[Europe/Paris]', '2026-04-05T00:15:00Z', true],
    // The repeated hour happens twice in the autumn (2026-10-25, CEST → CET).
    ['Sun 02:00-02:59[Europe/Paris]', '2026-10-25T00:30:00Z', true],
    ['Sun 02:00-02:59[Europe/Paris]', '2026-10-25T01:30:00Z', true],
    ['Sun 02:00-02:59[Europe/Paris]', '2026-10-25T02:00:00Z', false],
    // New York falls back on 2026-11-01: 01:00-01:59 lasts two real hours.
    ['01:00-01:59[America/New_York]', '2026-11-01T05:30:00Z', true],
    ['01:00-01:59[America/New_York]', '2026-11-01T06:30:00Z', true],
    ['01:00-01:59[America/New_York]', '2026-11-01T07:00:00Z', false],
    // Days read in the schedule's zone: Friday 23:30 in Vancouver is Saturday in UTC.
    ['Mon-Fri[America/Vancouver]', '2026-06-13T06:30:00Z', true],
    ['Mon-Fri', '2026-06-13T06:30:00Z', false],
    // Wrapping ranges.
    ['Fri-Mon', '2026-06-14T12:00:00Z', true],
    ['Fri-Mon', '2026-06-10T12:00:00Z', false],
    ['22:00-06:00', '2026-06-10T23:00:00Z', true],
    ['22:00-06:00', '2026-06-10T05:59:00Z', true],
    ['22:00-06:00', '2026-06-10T12:00:00Z', false],
  ])('%s at %s → %s', (text, instant, expected) =>
    expect(scheduleHolds(schedule(text), at(instant))).toBe(expected),
  );

  it.each([
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-27T16:30:00Z', '2026-03-30T07:00:00.000Z'],
    ['Mon-Fri 09:00-17:00[Europe/Paris]', '2026-03-30T07:00:00Z', '2026-03-30T15:01:00.000Z'],
    ['Mon-Fri 09:00-17:00[America/New_York]', '2026-03-06T22:30:00Z', '2026-03-09T13:00:00.000Z'],
    ['01:00-01:59[America/New_York]', '2026-11-01T05:30:00Z', '2026-11-01T07:00:00.000Z'],
    ['Sat-Sun', '2026-06-10T12:00:00Z', '2026-06-13T00:00:00.000Z'],
    ['Sat-Sun[Europe/Paris]', '2026-06-13T12:00:00Z', '2026-06-14T22:00:00.000Z'],
    ['Mon-Sun', '2026-06-10T12:00:00Z', null],
  ])('%s from %s next changes at %s', (text, instant, next) =>
    expect(nextScheduleChange(schedule(text), at(instant))?.toISOString() ?? null).toBe(next),
  );

  it('describes itself as the API shows schedules', () => {
    expect(scheduleJson(schedule('Mon-Tue 09:30-17:00[Europe/Paris]'))).toEqual({
      timezone: 'Europe/Paris',
      days: {
        monday: { times: [{ start_at: { hour: 9, minute: 30 }, end_at: { hour: 17, minute: 0 } }] },
        tuesday: { times: [{ start_at: { hour: 9, minute: 30 }, end_at: { hour: 17, minute: 0 } }] },
        wednesday: { times: [] },
        thursday: { times: [] },
        friday: { times: [] },
        saturday: { times: [] },
        sunday: { times: [] },
      },
    });
    expect(scheduleJson(schedule('Sun')).days.sunday).toEqual({
      times: [{ start_at: { hour: 0, minute: 0 }, end_at: { hour: 23, minute: 59 } }],
    });
  });
});

describe('current-datetime intervals against the clock', () => {
  it.each([
    ['2026-03-29T01:00/2026-03-29T04:00[Europe/Paris]', '2026-03-28T23:59:59Z', false],
    ['2026-03-29T01:00/2026-03-29T04:00[Europe/Paris]', '2026-03-29T00:00:00Z', true],
    ['2026-03-29T01:00/2026-03-29T04:00[Europe/Paris]', '2026-03-29T02:00:59Z', true],
    ['2026-03-29T01:00/2026-03-29T04:00[Europe/Paris]', '2026-03-29T02:01:00Z', false],
    ['2023-07-13T14:00Z/2023-07-13T16:00Z', '2023-07-13T16:00:30Z', true],
    ['2023-07-13T14:00:00.123/2023-07-13T16:00:00.123', '2023-07-13T16:00:00.123Z', true],
    ['2023-07-13T14:00:00.123/2023-07-13T16:00:00.123', '2023-07-13T16:00:00.124Z', false],
    ['2023-07-13T14:00+02:00/2023-07-13T16:00+02:00', '2023-07-13T12:30:00Z', true],
    // Every 14th of July, 14:00 to 19:00 in Paris, whatever the year.
    ['XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', '2031-07-14T12:00:00Z', true],
    ['XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', '2031-07-14T17:01:00Z', false],
    // Every day of July 2023 only: the year written on one side holds for both.
    ['2023-07-XXT14:00/XXXX-07-XXT19:00[Europe/Paris]', '2023-07-20T13:00:00Z', true],
    ['2023-07-XXT14:00/XXXX-07-XXT19:00[Europe/Paris]', '2024-07-20T13:00:00Z', false],
    // Every 31st of 2023; months without one are skipped.
    ['2023-XX-31T14:00/2023-XX-31T19:00[Europe/Paris]', '2023-08-31T13:00:00Z', true],
    ['2023-XX-31T14:00/2023-XX-31T19:00[Europe/Paris]', '2023-09-30T13:00:00Z', false],
    // A window running into the next period: New Year's night.
    ['XXXX-12-31T22:00/XXXX-01-01T02:00', '2026-12-31T23:00:00Z', true],
    ['XXXX-12-31T22:00/XXXX-01-01T02:00', '2027-01-01T01:30:00Z', true],
    ['XXXX-12-31T22:00/XXXX-01-01T02:00', '2027-01-01T02:01:00Z', false],
    // Every night in New York, across the autumn change.
    ['XXXX-XX-XXT22:00/XXXX-XX-XXT06:00[America/New_York]', '2026-11-01T10:30:00Z', true],
    ['XXXX-XX-XXT22:00/XXXX-XX-XXT06:00[America/New_York]', '2026-11-01T11:01:00Z', false],
    // Bare dates hold all day.
    ['2026-12-25/2026-12-26[Europe/Paris]', '2026-12-26T22:59:59Z', true],
    ['2026-12-25/2026-12-26[Europe/Paris]', '2026-12-26T23:00:00Z', false],
  ])('%s at %s → %s', (text, instant, expected) =>
    expect(intervalHolds(interval(text), at(instant))).toBe(expected),
  );

  it.each([
    ['XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', '2031-07-14T12:00:00Z', '2031-07-14T17:01:00.000Z'],
    ['XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', '2031-07-15T12:00:00Z', '2032-07-14T12:00:00.000Z'],
    [
      'XXXX-XX-XXT22:00/XXXX-XX-XXT06:00[America/New_York]',
      '2026-03-08T12:00:00Z',
      '2026-03-09T02:00:00.000Z',
    ],
    ['2023-XX-31T14:00/2023-XX-31T19:00', '2023-09-01T00:00:00Z', '2023-10-31T14:00:00.000Z'],
    ['2026-01-01T00:00/2026-01-02T00:00', '2026-06-01T00:00:00Z', null],
    ['2030-01-01T00:00/2030-01-02T00:00', '2026-06-01T00:00:00Z', '2030-01-01T00:00:00.000Z'],
  ])('%s from %s next changes at %s', (text, instant, next) =>
    expect(nextIntervalChange(interval(text), at(instant))?.toISOString() ?? null).toBe(next),
  );
});
