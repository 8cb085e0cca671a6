import fc from 'fast-check';
import { hostileString } from './hostile-text';

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * Percent-encodes every character but the unreserved ones, from its UTF-8 bytes. Unlike
 * encodeURIComponent it never throws: a lone surrogate goes out as U+FFFD, as a browser sends it.
 */
export function percentEncode(text: string): string {
  let encoded = '';
  for (const char of text) {
    if (UNRESERVED.test(char)) encoded += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

/** Escapes no encoder produces: NUL, an encoded lone surrogate, overlong and invalid UTF-8, broken escapes. */
const RAW_ESCAPES = [
  '%00',
  '%ED%A0%80',
  '%ED%B0%80',
  '%C0%80',
  '%C0%AF',
  '%FF',
  '%F4%90%80%80',
  '%ZZ',
  '%',
  '%2',
  '%2F',
  '%25',
];

/** URL text as sent on the wire: encoded hostile text, raw escapes, or both spliced together. */
export const encodedText = (plausible: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: plausible.map(percentEncode) },
    { weight: 3, arbitrary: hostileString.map(percentEncode) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(plausible, fc.constantFrom(...RAW_ESCAPES), fc.boolean())
        .map(([text, escape, before]) =>
          before ? escape + percentEncode(text) : percentEncode(text) + escape,
        ),
    },
  );

/** One query string parameter, already encoded. */
export interface QueryPair {
  key: string;
  value: string;
}

/**
 * Query strings: each known key (with its plausible values) sent zero, one or several times, plus
 * the odd unknown or hostile key; the order is shuffled.
 */
export const queryLike = (known: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<QueryPair[]> => {
  const pairs = Object.entries(known).map(([key, plausible]) =>
    fc.array(
      encodedText(plausible).map((value) => ({ key, value })),
      { maxLength: 3 },
    ),
  );
  const stray = fc.array(
    fc.record({
      key: encodedText(fc.constantFrom('x', 'cursor', 'per_page')),
      value: encodedText(fc.string()),
    }),
    { maxLength: 1 },
  );
  return fc.tuple(fc.tuple(...pairs), stray, fc.nat()).map(([lists, extra, shuffle]) => {
    const all = [...lists.flat(), ...extra];
    // A cheap deterministic shuffle: order matters little, but repeated keys keep theirs.
    const rotate = all.length === 0 ? 0 : shuffle % all.length;
    return [...all.slice(rotate), ...all.slice(0, rotate)];
  });
};

export const renderQuery = (pairs: readonly QueryPair[]): string =>
  pairs.length === 0 ? '' : `?${pairs.map(({ key, value }) => `${key}=${value}`).join('&')}`;
