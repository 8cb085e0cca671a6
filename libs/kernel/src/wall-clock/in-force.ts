/**
 * Whether a window (a scheduled freeze) is in force at an instant: start ≤ instant < end, so the end
 * instant is the first one no longer frozen; a null end holds forever. Instants come as Dates or as
 * the ISO text events carry.
 */
export interface InForceWindow {
  startAt: Date | string;
  endAt: Date | string | null;
}

const millis = (at: Date | string): number => (typeof at === 'string' ? Date.parse(at) : at.getTime());

export const hasBegunAt = (window: Pick<InForceWindow, 'startAt'>, instant: Date): boolean =>
  millis(window.startAt) <= instant.getTime();

export const isInForceAt = (window: InForceWindow, instant: Date): boolean =>
  hasBegunAt(window, instant) && (window.endAt === null || instant.getTime() < millis(window.endAt));
