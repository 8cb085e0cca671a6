import { DateTime } from 'luxon';
import type { Schedule, TimeOfDay } from '../syntax/values/schedule';

/**
 * A schedule read against the clock, in its own zone with luxon (so DST changes move the UTC
 * instants, never the wall-clock window).
 */
const minutesOf = (time: TimeOfDay): number => time.hour * 60 + time.minute;

export function scheduleHolds(schedule: Schedule, at: Date): boolean {
  const local = DateTime.fromJSDate(at, { zone: schedule.timezone });
  if (schedule.days && !schedule.days.includes(local.weekday)) return false;
  if (!schedule.times) return true;
  const minute = local.hour * 60 + local.minute;
  const start = minutesOf(schedule.times.start);
  const end = minutesOf(schedule.times.end);
  return start <= end ? minute >= start && minute <= end : minute >= start || minute <= end;
}

/**
 * The first instant after `now` at which the schedule's verdict changes: a day boundary, the start
 * of the time range, or the minute after its (inclusive) end, over the next eight days. Days are
 * scanned in order and the scan stops at the first change.
 */
export function nextScheduleChange(schedule: Schedule, now: Date): Date | null {
  const current = scheduleHolds(schedule, now);
  const today = DateTime.fromJSDate(now, { zone: schedule.timezone }).startOf('day');
  for (let offset = 0; offset <= 8; offset++) {
    const change = candidatesOn(schedule, today.plus({ days: offset }))
      .filter((candidate) => candidate.getTime() > now.getTime())
      .sort((a, b) => a.getTime() - b.getTime())
      .find((candidate) => scheduleHolds(schedule, candidate) !== current);
    if (change) return change;
  }
  return null;
}

function candidatesOn(schedule: Schedule, day: DateTime): Date[] {
  const candidates = [day.startOf('day')];
  if (schedule.times) {
    const { start, end } = schedule.times;
    candidates.push(day.set({ hour: start.hour, minute: start.minute }));
    // The minute after the end, both as elapsed time and as wall clock: they differ when the
    // clock is set back inside the window (01:59 EDT + 1 minute is 01:00 EST, not 02:00).
    candidates.push(day.set({ hour: end.hour, minute: end.minute }).plus({ minutes: 1 }));
    const after = end.hour * 60 + end.minute + 1;
    if (after < 24 * 60) candidates.push(day.set({ hour: Math.floor(after / 60), minute: after % 60 }));
  }
  return candidates.map((candidate) => candidate.toJSDate());
}

const DAY_KEYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export interface ScheduleJson {
  timezone: string;
  days: Record<string, { times: { start_at: TimeOfDay; end_at: TimeOfDay }[] }>;
}

/**
 * The `schedule` object of a ConditionEvaluation. The spec does not show the shape of `days`
 * (queue-semantics §5.3): keys are lower-case English day names; a day outside the schedule has no
 * times; a schedule without times holds from 00:00 to 23:59.
 */
export function scheduleJson(schedule: Schedule): ScheduleJson {
  const times = schedule.times ?? { start: { hour: 0, minute: 0 }, end: { hour: 23, minute: 59 } };
  const days: ScheduleJson['days'] = {};
  DAY_KEYS.forEach((key, index) => {
    const included = schedule.days === null || schedule.days.includes(index + 1);
    days[key] = { times: included ? [{ start_at: { ...times.start }, end_at: { ...times.end } }] : [] };
  });
  return { timezone: schedule.timezone, days };
}
