/** The last N UTC days including today: the spec's stats windows (7d, 30d, 90d). */
export interface DayWindow {
  start: Date;
  /** Exclusive: the start of tomorrow. */
  end: Date;
  days: Date[];
}

const DAY_MS = 86_400_000;

export function dayWindow(now: Date, days: number): DayWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const starts = Array.from({ length: days }, (_, index) => new Date(today - (days - 1 - index) * DAY_MS));
  return { start: starts[0]!, end: new Date(today + DAY_MS), days: starts };
}

export const dayEnd = (day: Date): Date => new Date(day.getTime() + DAY_MS);

export const windowDays = (window: string): number => Number(window.replace(/d$/, ''));
