import picomatch from 'picomatch';

/** Globs follow bash: `*` crosses `/` and `::`, so `tests/*` matches every test under tests/. */
export const GLOB_OPTIONS = { bash: true, dot: true } as const;

/** A name matches a glob when it equals the glob, or else when it matches the compiled pattern. */
export interface GlobNarrowing {
  /** Every name the pattern matches begins with this ('' narrows nothing). */
  prefix: string;
  /** picomatch also matches a name equal to the glob itself, whatever its pattern says. */
  exact: string;
}

/**
 * What a name must look like for a glob to match it, as SQL can test it on an index: the text
 * its matches begin with, or the glob itself. The prefix is read from the regular expression
 * picomatch compiles, not from the glob, so picomatch's own rewrites count (a leading `./`
 * dropped, quotes, the `/` before a `**` made optional).
 */
export const globNarrowing = (glob: string): GlobNarrowing => ({
  prefix: regexLiteralPrefix(picomatch.makeRe(glob, GLOB_OPTIONS).source),
  exact: glob,
});

const SPECIAL = new Set(['.', '[', ']', '(', ')', '{', '}', '|', '^', '$', '*', '+', '?', '\\']);
const QUANTIFIERS = new Set(['?', '*', '+', '{']);

/**
 * The characters every match of a regular expression (JavaScript syntax, no flags) begins with:
 * its leading literals, read through `^` and through non-capturing groups that are neither
 * repeated, optional, nor alternatives. Anything else ends the prefix, which errs short: a
 * shorter prefix only narrows less.
 */
export function regexLiteralPrefix(source: string): string {
  let prefix = '';
  let at = 0;
  while (at < source.length) {
    if (source[at] === '^' && prefix === '') {
      at += 1;
      continue;
    }
    if (source.startsWith('(?:', at)) {
      const group = groupAt(source, at);
      if (group === undefined || group.alternatives || QUANTIFIERS.has(source[group.end + 1] ?? '')) break;
      at += 3;
      continue;
    }
    const literal = literalAt(source, at);
    if (literal === undefined || QUANTIFIERS.has(source[at + literal.length] ?? '')) break;
    prefix += literal.text;
    at += literal.length;
  }
  // A high surrogate whose low half was cut off would reach the database as U+FFFD.
  return /[\uD800-\uDBFF]$/.test(prefix) ? prefix.slice(0, -1) : prefix;
}

/** One literal character (a code point, or an escaped punctuation mark) and its length in the source. */
function literalAt(source: string, at: number): { text: string; length: number } | undefined {
  const char = String.fromCodePoint(source.codePointAt(at)!);
  if (char === '\\') {
    const escaped = source[at + 1];
    // \d, \w, \b, \1 … are classes, assertions or references; other escapes stand for themselves.
    if (escaped === undefined || /[\dA-Za-z]/.test(escaped)) return undefined;
    return { text: escaped, length: 2 };
  }
  return SPECIAL.has(char) ? undefined : { text: char, length: char.length };
}

/** The group opening at `at`: where it closes, and whether it splits into alternatives at its top level. */
function groupAt(source: string, at: number): { end: number; alternatives: boolean } | undefined {
  let depth = 0;
  let alternatives = false;
  for (let i = at; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') i += 1;
    else if (char === '[') i = classEnd(source, i);
    else if (char === '(') depth += 1;
    else if (char === ')') {
      depth -= 1;
      if (depth === 0) return { end: i, alternatives };
    } else if (char === '|' && depth === 1) alternatives = true;
  }
  return undefined;
}

/** Where the character class opening at `at` closes (JavaScript: `]` right after `[` or `[^` closes it). */
function classEnd(source: string, at: number): number {
  let i = source[at + 1] === '^' ? at + 2 : at + 1;
  for (; i < source.length; i++) {
    if (source[i] === '\\') i += 1;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
