/**
 * An error that says a dependency did not answer (a code host that is down or not listening yet,
 * a rate limit), rather than that the work itself is wrong. Work that fails this way is retried
 * for as long as it lasts: an outage is waited out, never blamed on the event being handled.
 */
export interface OutageSignal {
  readonly outage: true;
}

export const isOutage = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as Partial<OutageSignal>).outage === true;
