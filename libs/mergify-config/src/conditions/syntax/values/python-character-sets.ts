/**
 * What Python's `\d`, `\w`, `\s` (and their negations) match, written for RE2. Python reads them
 * over Unicode unless the `a` flag is set; RE2 reads them over ASCII, so they are spelled out:
 * `\d` is category Nd, `\w` is what `str.isalnum()` accepts plus `_` (letters and numbers), `\s` is
 * what `str.isspace()` accepts.
 */
export type Shorthand = 'd' | 'D' | 'w' | 'W' | 's' | 'S';

type Range = readonly [number, number];

const UNICODE_SPACES: readonly Range[] = [
  [0x09, 0x0d],
  [0x1c, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];
/** Python's ASCII `\s`: RE2's own lacks the vertical tab. */
const ASCII_SPACES: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
];
const LAST_CODE_POINT = 0x10ffff;

const codePoint = (value: number): string => `\\x{${value.toString(16)}}`;
const rangeText = ([from, to]: Range): string =>
  from === to ? codePoint(from) : `${codePoint(from)}-${codePoint(to)}`;

function complement(ranges: readonly Range[]): Range[] {
  const result: Range[] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) result.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= LAST_CODE_POINT) result.push([next, LAST_CODE_POINT]);
  return result;
}

const spaces = (ascii: boolean) => (ascii ? ASCII_SPACES : UNICODE_SPACES);
const WORD = '\\p{L}\\p{N}_';

/** The shorthand outside a character set: a self-contained RE2 atom. */
export function shorthandAtom(shorthand: Shorthand, ascii: boolean): string {
  if (ascii && shorthand !== 's' && shorthand !== 'S') return `\\${shorthand}`;
  switch (shorthand) {
    case 'd':
      return '\\p{Nd}';
    case 'D':
      return '\\P{Nd}';
    case 'w':
      return `[${WORD}]`;
    case 'W':
      return `[^${WORD}]`;
    case 's':
      return `[${spaces(ascii).map(rangeText).join('')}]`;
    case 'S':
      return `[^${spaces(ascii).map(rangeText).join('')}]`;
  }
}

/**
 * The shorthand inside a character set: members to write between its brackets, or null for the
 * one that no list of members can say (Unicode `\W`, the complement of a union of categories).
 */
export function shorthandMembers(shorthand: Shorthand, ascii: boolean): string | null {
  if (ascii && shorthand !== 's' && shorthand !== 'S') return `\\${shorthand}`;
  switch (shorthand) {
    case 'd':
      return '\\p{Nd}';
    case 'D':
      return '\\P{Nd}';
    case 'w':
      return WORD;
    case 'W':
      return null;
    case 's':
      return spaces(ascii).map(rangeText).join('');
    case 'S':
      return complement(spaces(ascii)).map(rangeText).join('');
  }
}

/** Python's Unicode `\W` as an RE2 atom, for a set that holds it (written as an alternation). */
export const UNICODE_NON_WORD = `[^${WORD}]`;
