import { IANAZone } from 'luxon';

/**
 * An IANA zone name (`Europe/Paris`, `UTC`) as luxon, and so the freeze scheduler, understands it.
 * Offsets (`+02:00`) are not zone names: Node 22's Intl accepts them as time zones (ECMA-402's
 * offset time zones), and so luxon does there, but no IANA name starts with a sign.
 */
export const isIanaTimeZone = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && !/^[+-]/.test(value) && IANAZone.isValidZone(value);
