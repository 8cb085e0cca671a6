/**
 * Glob patterns for `*=` (Mergify's "Globs" data type): braces are expanded here, then each
 * alternative is translated for RE2 (`glob-pattern.ts`). Mergify's brace rules: an empty branch is
 * dropped (`foo{,.txt}` matches `foo.txt` only), an unbalanced brace is an error rather than a
 * literal, and a pattern expands to at most 128 alternatives nested at most 32 deep. `\{`, `\}` and
 * `\,` are literal characters; so are braces inside `[…]`.
 */
export const MAX_GLOB_ALTERNATIVES = 128;
export const MAX_GLOB_NESTING = 32;

export type GlobExpansion = { ok: true; patterns: string[] } | { ok: false; detail: string };

class GlobError extends Error {}

/** The brace-free patterns a glob stands for. */
export function expandGlob(pattern: string): GlobExpansion {
  try {
    const reader = { text: pattern, index: 0 };
    const patterns = readSequence(reader, 0, false);
    if (reader.index < pattern.length) throw new GlobError("Invalid glob: unbalanced '}'");
    if (patterns.length === 0)
      return { ok: false, detail: 'Invalid glob: its braces hold only empty branches' };
    return { ok: true, patterns: [...new Set(patterns)] };
  } catch (error) {
    if (error instanceof GlobError) return { ok: false, detail: error.message };
    throw error;
  }
}

interface Reader {
  text: string;
  index: number;
}

/** Reads until the end, or (inside a group) until `,` or `}`; returns the alternatives. */
function readSequence(reader: Reader, depth: number, inGroup: boolean): string[] {
  let alternatives = [''];
  const append = (literal: string) => {
    alternatives = alternatives.map((alternative) => alternative + literal);
  };
  while (reader.index < reader.text.length) {
    const character = reader.text[reader.index]!;
    if (character === '\\') {
      const next = reader.text[reader.index + 1] ?? '';
      append(next === ',' ? ',' : character + next);
      reader.index += 2;
    } else if (character === '[') {
      const close = findClassEnd(reader.text, reader.index);
      // An unclosed `[` is a literal, as in Python's fnmatch.
      append(close === -1 ? '\\[' : reader.text.slice(reader.index, close + 1));
      reader.index = close === -1 ? reader.index + 1 : close + 1;
    } else if (character === '{') {
      if (depth + 1 > MAX_GLOB_NESTING)
        throw new GlobError(`Invalid glob: braces nest more than ${MAX_GLOB_NESTING} levels`);
      reader.index++;
      const branches = readGroup(reader, depth + 1);
      const combined: string[] = [];
      for (const alternative of alternatives)
        for (const branch of branches) combined.push(alternative + branch);
      if (combined.length > MAX_GLOB_ALTERNATIVES)
        throw new GlobError(`Invalid glob: expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
      alternatives = combined;
    } else if (inGroup && (character === ',' || character === '}')) {
      return alternatives;
    } else if (character === '}') {
      throw new GlobError("Invalid glob: unbalanced '}'");
    } else {
      // A run of plain characters at once: appending each one copied every alternative per character.
      const end = plainRunEnd(reader.text, reader.index + 1);
      append(reader.text.slice(reader.index, end));
      reader.index = end;
    }
  }
  if (inGroup) throw new GlobError("Invalid glob: unbalanced '{'");
  return alternatives;
}

/** The end of the run, from `from` on, of characters with no meaning in globs (none of `\\ [ { , }`). */
function plainRunEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !GLOB_SYNTAX.has(text[end]!)) end++;
  return end;
}
const GLOB_SYNTAX = new Set(['\\', '[', '{', ',', '}']);

function readGroup(reader: Reader, depth: number): string[] {
  const branches: string[] = [];
  for (;;) {
    const branch = readSequence(reader, depth, true);
    branches.push(...branch.filter((alternative) => alternative !== ''));
    if (branches.length > MAX_GLOB_ALTERNATIVES)
      throw new GlobError(`Invalid glob: expands to more than ${MAX_GLOB_ALTERNATIVES} alternatives`);
    const separator = reader.text[reader.index];
    reader.index++;
    if (separator === '}') return branches;
  }
}

/** Index of the `]` closing the class opened at `open` (a leading `]` or `!]` is a literal); -1 if none. */
function findClassEnd(text: string, open: number): number {
  let index = open + 1;
  if (text[index] === '!' || text[index] === '^') index++;
  if (text[index] === ']') index++;
  while (index < text.length && text[index] !== ']') index += text[index] === '\\' ? 2 : 1;
  return index >= text.length ? -1 : index;
}
