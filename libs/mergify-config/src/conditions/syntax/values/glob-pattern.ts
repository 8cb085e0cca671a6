import { regexLiteral } from '@switchyard/kernel';
import { expandGlob } from './glob';

/**
 * A `*=` glob as one RE2 pattern, matched on the whole text. Braces are expanded first (see
 * `glob.ts`); each alternative then reads as Mergify documents globs (the rules of Python's
 * `glob.translate` with `recursive` and `include_hidden`): a whole `**` segment is any number of
 * segments, none included; a whole `*` segment is exactly one; `*` inside a segment is any run of
 * non-separators, `?` one non-separator; `[seq]` and `[!seq]` are sets (as in fnmatch, `[^` is a
 * set holding `^`, and a `[` without its `]` is a literal); `\x` is a literal x. RE2 matches in
 * time linear in the text, so no glob can hold the service (picomatch, before, compiled
 * `*a*a*a*a*a*a*a*a*a*a*a*a*b` into a JavaScript regex that took over a minute on forty `a`).
 */
export type GlobTranslation = { ok: true; source: string } | { ok: false; detail: string };

const ANY_SEGMENTS = '(?:.+/)?';
const ANY_LAST_SEGMENTS = '.*';
const ONE_SEGMENT = '[^/]+';
const NEVER = '[^\\x{0}-\\x{10ffff}]';

export function translateGlob(pattern: string): GlobTranslation {
  const expanded = expandGlob(pattern);
  if (!expanded.ok) return expanded;
  // Every piece is written here (literals escaped, sets built, ranges ordered), so RE2 compiles it
  // (held to it by glob-pattern.property.spec.ts); compiling waits for the first match.
  return { ok: true, source: `^(?:${expanded.patterns.map(alternative).join('|')})$` };
}

function alternative(pattern: string): string {
  const parts = pattern.split('/');
  const last = parts.length - 1;
  let source = '';
  parts.forEach((part, index) => {
    if (part === '*') source += index < last ? `${ONE_SEGMENT}/` : ONE_SEGMENT;
    else if (part === '**') {
      if (index === last) source += ANY_LAST_SEGMENTS;
      else if (parts[index + 1] !== '**') source += ANY_SEGMENTS;
    } else source += segment(part) + (index < last ? '/' : '');
  });
  return source;
}

/** One segment: `*` any run of non-separators, `?` one, sets, escapes and literals. */
function segment(part: string): string {
  let source = '';
  for (let index = 0; index < part.length;) {
    const character = part[index]!;
    if (character === '*') {
      while (part[index] === '*') index++;
      source += '[^/]*';
    } else if (character === '?') {
      source += '[^/]';
      index++;
    } else if (character === '\\') {
      source += regexLiteral(part[index + 1] ?? '\\');
      index += 2;
    } else if (character === '[') {
      const set = characterSet(part, index);
      source += set?.source ?? '\\[';
      index = set ? set.end : index + 1;
    } else {
      source += regexLiteral(character);
      index++;
    }
  }
  return source;
}

/** The set opening at `open`, read as fnmatch does, or null when it has no closing `]`. */
function characterSet(part: string, open: number): { source: string; end: number } | null {
  let index = open + 1;
  const negated = part[index] === '!';
  if (negated) index++;
  const members: string[] = [];
  // A `]` right after `[` or `[!` belongs to the set.
  for (let first = true; index < part.length; first = false) {
    const character = part[index]!;
    if (character === ']' && !first) {
      const source = setSource(members, negated);
      return { source, end: index + 1 };
    }
    if (character === '\\' && index + 1 < part.length) {
      members.push(part[index + 1]!);
      index += 2;
    } else {
      members.push(character);
      index++;
    }
  }
  return null;
}

/** Ranges `a-z` are kept; a reversed one matches nothing, as in fnmatch. */
function setSource(members: string[], negated: boolean): string {
  let body = '';
  for (let index = 0; index < members.length; index++) {
    const from = members[index]!;
    const to = members[index + 2];
    if (members[index + 1] === '-' && to !== undefined) {
      if (from <= to) body += `${regexLiteral(from)}-${regexLiteral(to)}`;
      index += 2;
    } else body += regexLiteral(from);
  }
  if (body === '') return negated ? '[^/]' : NEVER;
  // A segment never holds the separator, so a negated set does not match it either.
  return negated ? `[^/${body}]` : `[${body}]`;
}
