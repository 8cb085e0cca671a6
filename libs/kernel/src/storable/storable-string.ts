import { codePointLength } from './code-point-length';

/**
 * The strings every store and read model can hold. PostgreSQL text and jsonb refuse NUL (U+0000);
 * a lone UTF-16 surrogate cannot be encoded as UTF-8, so drivers either fail on it or silently
 * replace it, and jsonb refuses its `\ud800` escape. A length ceiling keeps one field from filling a
 * row (and the activity log, which copies it); fields may set lower limits of their own (a pause
 * reason is at most 255). Lengths count Unicode code points, as the clients do.
 */
export const STORABLE_STRING_MAX_CODE_POINTS = 10_000;

export type UnstorableCharacterProblem =
  { kind: 'nul'; message: string } | { kind: 'lone_surrogate'; message: string };

export type StorableStringProblem =
  UnstorableCharacterProblem | { kind: 'too_long'; message: string; maxCodePoints: number };

// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for.
const NUL = /\u0000/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The character rule alone, for text whose length is bounded elsewhere (a 1 MiB `.mergify.yml`, a
 * 64 KiB pull-request body): why no store can hold `text`, or null when every store can.
 */
export function unstorableCharacterProblem(text: string): UnstorableCharacterProblem | null {
  if (NUL.test(text)) return { kind: 'nul', message: 'must not contain the NUL character (U+0000)' };
  if (LONE_SURROGATE.test(text))
    return { kind: 'lone_surrogate', message: 'must not contain a lone UTF-16 surrogate' };
  return null;
}

/** Why `text` cannot be stored, or null when it can. */
export function storableStringProblem(
  text: string,
  maxCodePoints = STORABLE_STRING_MAX_CODE_POINTS,
): StorableStringProblem | null {
  const limit = Math.min(maxCodePoints, STORABLE_STRING_MAX_CODE_POINTS);
  if (codePointLength(text, limit) > limit)
    return { kind: 'too_long', message: `must be at most ${limit} characters`, maxCodePoints: limit };
  return unstorableCharacterProblem(text);
}

export const isStorableString = (
  value: unknown,
  maxCodePoints = STORABLE_STRING_MAX_CODE_POINTS,
): value is string => typeof value === 'string' && storableStringProblem(value, maxCodePoints) === null;

/**
 * A storable look-alike, for text recorded before these rules were enforced: NUL and lone surrogates
 * become U+FFFD, as a UTF-8 decoder would show them. Length is left alone: long text stores fine.
 */
export const toStorableText = (text: string): string =>
  // eslint-disable-next-line no-control-regex -- see NUL above.
  text.replace(/\u0000/g, '\uFFFD').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
