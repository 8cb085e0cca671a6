/**
 * The instants every store and read model can hold: years 1 to 9999 in UTC, i.e.
 * 0001-01-01T00:00:00Z ≤ instant ≤ 9999-12-31T23:59:59.999Z. PostgreSQL's timestamptz goes further
 * (4713 BC to 294276 AD), but its text form for years before 1 ("BC") and JavaScript's for years
 * after 9999 ("+010000-…") do not read back through the other side, and RFC 3339 only writes four-digit
 * years. A freeze's naive times are checked after its zone is applied: `0001-01-01T00:00:00` in
 * Europe/Paris is 0000-12-31T23:50:39Z, outside the range.
 */
export const MIN_STORABLE_INSTANT_MS = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
export const MAX_STORABLE_INSTANT_MS = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z

export const MIN_STORABLE_INSTANT_ISO = '0001-01-01T00:00:00.000Z';
export const MAX_STORABLE_INSTANT_ISO = '9999-12-31T23:59:59.999Z';

const millisOf = (instant: Date | number): number =>
  typeof instant === 'number' ? instant : instant.getTime();

export const isStorableInstant = (instant: Date | number): boolean => {
  const ms = millisOf(instant);
  return Number.isFinite(ms) && ms >= MIN_STORABLE_INSTANT_MS && ms <= MAX_STORABLE_INSTANT_MS;
};

/**
 * The nearest storable instant: for events recorded before the range was enforced, so that a read
 * model can still hold them (a freeze starting in year 0 behaves as one starting in year 1).
 */
export const clampToStorableInstant = (instant: Date | number): Date => {
  const ms = millisOf(instant);
  if (Number.isNaN(ms)) throw new RangeError('Cannot clamp an invalid instant');
  return new Date(Math.min(Math.max(ms, MIN_STORABLE_INSTANT_MS), MAX_STORABLE_INSTANT_MS));
};

/**
 * The same for instants recorded as text (events carry ISO strings). Unparseable text is left as it
 * is: it was never written by the domain, and the caller's SQL will say so.
 */
export const clampStorableInstantText = (iso: string): string => {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || isStorableInstant(ms)) return iso;
  return clampToStorableInstant(ms).toISOString();
};
