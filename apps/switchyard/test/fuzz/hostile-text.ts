import fc from 'fast-check';

/**
 * Text a hostile or careless client sends: control characters (NUL above all), lone UTF-16
 * surrogates, non-BMP characters, right-to-left marks, very long strings, and values that look like
 * numbers or dates without being usable ones.
 */
const NASTY_PIECES = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\udc00y',
  '\ud83d\ude00',
  '\u202e',
  '\ufeff',
  '\u2028',
  '\u0085',
  '\t\r\n',
  '\\',
  '"',
  "'; DROP TABLE x; --",
  '%00',
  '%s%n',
  '../..',
  '__proto__',
  'constructor',
  'NaN',
  '-0',
  '1e309',
  '9223372036854775808',
  ' ',
  '',
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_PIECES) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...NASTY_PIECES, 'a', 'é'), maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', 'é', '😀', '\u0000'), fc.integer({ min: 250, max: 70_000 }))
      .map(([char, count]) => char.repeat(count)),
  },
);

/** Date-times at and beyond every edge: year 0 and 10000, offsets that push a valid wall time out of range, DST gaps. */
export const oddNaiveDateTime: fc.Arbitrary<string> = fc.constantFrom(
  '0000-01-01T00:00:00',
  '0001-01-01T00:00:00',
  '0001-01-01T08:59:59',
  '9999-12-31T23:59:59',
  '9999-12-31T23:59:59.999999',
  '10000-01-01T00:00:00',
  '-0001-01-01T00:00:00',
  '+002026-05-01T00:00:00',
  '2026-02-30T00:00:00',
  '2026-03-29T02:30:00',
  '2026-10-25T02:30:00',
  '2026-05-01T24:00:00',
  '2026-05-01T23:59:60',
  '2026-05-01T00:00:00.1234567890123',
  '2026-05-01',
  '2026-05-01T00:00:00Z',
  '2026-05-01T00:00:00+02:00',
  '2099-01-01T00:00:00',
  '1970-01-01T00:00:00',
);

export const oddInstant: fc.Arbitrary<string> = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00',
  '0001-01-01T00:00:00+23:59',
  '9999-12-31T23:59:59-14:00',
  '9999-12-31T23:59:59.999999Z',
  '9999-12-31T23:59:59-23:59',
  '10000-01-01T00:00:00Z',
  '2026-03-01T00:00:00Z',
  '2026-03-02T10:00:00+01:00',
  '2026-02-30T00:00:00Z',
  '1700000000',
  '2026-03-01T00:00:00',
  '2026-03-01',
  '1970-01-01T00:00:00Z',
  '2026-03-01T00:00:00.000000001Z',
);

export const oddTimeZone: fc.Arbitrary<string> = fc.constantFrom(
  'Europe/Paris',
  'UTC',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Etc/GMT+12',
  'Etc/GMT-14',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'utc',
  'EST5EDT',
  '+05:00',
  'Not/AZone',
  '',
  'Europe/Paris\u0000',
);

/** Numbers JSON can carry that a naive reader mishandles (sent as raw JSON text where JS cannot hold them). */
export const oddNumberText: fc.Arbitrary<string> = fc.constantFrom(
  '1e308',
  '-1e308',
  '1e999',
  '-1e999',
  '5e-324',
  '-0',
  '0.0',
  '123456789012345678901234567890',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483647',
  '1.5',
);
