import { RE2JS, RE2JSException } from 're2js';

/**
 * Every pattern a user writes (a condition's regex, a glob) is matched by RE2 (`re2js`, a pure
 * JavaScript port of RE2): its matching time is linear in the text, whatever the pattern, where
 * JavaScript's own engine backtracks (`^(a+)+$` on thirty `a` and a `!` takes seconds and blocks
 * every request meanwhile). The source is RE2 syntax; flags are a subset of `ims`.
 */
export type LinearRegex = RE2JS;

const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

/** Compiles, or throws with RE2's reason (`error parsing regexp: …`). */
export function compileLinearRegex(source: string, flags = ''): LinearRegex {
  let bits = 0;
  for (const flag of flags) bits |= FLAG_BITS[flag] ?? 0;
  return RE2JS.compile(source, bits);
}

/** Whether an error is RE2's refusal of a pattern (anything else is a bug, and is thrown on). */
export const isPatternError = (error: unknown): error is Error => error instanceof RE2JSException;

/**
 * One character as a literal of an RE2 pattern: ASCII punctuation escaped (RE2 refuses an escape
 * before a letter or digit, and accepts one before any punctuation), anything else as it is.
 */
export const regexLiteral = (character: string): string =>
  character.length === 1 && character.charCodeAt(0) < 0x80 && !/[A-Za-z0-9]/.test(character)
    ? `\\${character}`
    : character;
