import { IANAZone } from 'luxon';

/** An IANA zone name (`Europe/Paris`, `UTC`) as luxon, and so the freeze scheduler, understands it. */
export const isIanaTimeZone = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && IANAZone.isValidZone(value);
