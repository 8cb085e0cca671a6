import { isIanaTimeZone } from '@switchyard/kernel';

/**
 * Zone names are checked once each: asking Intl whether a zone exists costs about as much as
 * parsing a whole condition, and a configuration repeats the same few zones.
 */
const verdicts = new Map<string, boolean>();

export function isKnownTimeZone(zone: string): boolean {
  let known = verdicts.get(zone);
  if (known === undefined) {
    known = isIanaTimeZone(zone);
    if (verdicts.size > 1000) verdicts.clear();
    verdicts.set(zone, known);
  }
  return known;
}
