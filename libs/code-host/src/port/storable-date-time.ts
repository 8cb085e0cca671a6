import { isStorableInstant } from '@switchyard/kernel';
import { fullFormats } from 'ajv-formats/dist/formats';

/** ajv-formats' RFC 3339 date-time (its full mode: an offset required, days and leap seconds checked). */
const isDateTime = (fullFormats['date-time'] as { validate: (text: string) => boolean }).validate;

/**
 * An instant as GitHub writes them (RFC 3339 with an offset, `2026-03-02T10:00:00Z`) that every
 * store can hold (years 1 to 9999 once the offset is applied): what the webhook door reads as a
 * time and what the sandbox forge takes for one.
 */
export const isStorableDateTime = (text: string): boolean =>
  isDateTime(text) && isStorableInstant(Date.parse(text));
