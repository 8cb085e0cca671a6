import { codePointLength } from './code-point-length';
import {
  isStorableString,
  STORABLE_STRING_MAX_CODE_POINTS,
  storableStringProblem,
  toStorableText,
} from './storable-string';

describe('storable strings', () => {
  it.each(['', 'release freeze', '🚀 launch', 'é\u0301', '\uD83D\uDE80'])('accepts %j', (text) =>
    expect(storableStringProblem(text)).toBeNull(),
  );

  it.each([
    ['a NUL', 'a\u0000b', 'nul'],
    ['a lone high surrogate', 'a\uD800', 'lone_surrogate'],
    ['a lone low surrogate', '\uDC00b', 'lone_surrogate'],
    ['two high surrogates', '\uD83D\uD83D', 'lone_surrogate'],
    ['an overlong text', 'x'.repeat(STORABLE_STRING_MAX_CODE_POINTS + 1), 'too_long'],
  ])('refuses %s', (_, text, kind) => expect(storableStringProblem(text)?.kind).toBe(kind));

  it('counts the limit in code points and never above the ceiling', () => {
    expect(storableStringProblem('🚀'.repeat(255), 255)).toBeNull();
    expect(storableStringProblem('🚀'.repeat(256), 255)).toMatchObject({
      kind: 'too_long',
      maxCodePoints: 255,
    });
    expect(storableStringProblem('x'.repeat(10_001), 1e9)).toMatchObject({
      maxCodePoints: STORABLE_STRING_MAX_CODE_POINTS,
    });
  });

  it('is a type guard that refuses non-strings', () => {
    expect(isStorableString(42)).toBe(false);
    expect(isStorableString('ok')).toBe(true);
  });

  it('turns recorded unstorable text into a storable look-alike', () => {
    const fixed = toStorableText('a\u0000b\uD800c\uD83D\uDE80');
    expect(fixed).toBe('a\uFFFDb\uFFFDc\uD83D\uDE80');
    expect(storableStringProblem(fixed)).toBeNull();
  });

  it('code-point length stops counting past the limit', () => {
    expect(codePointLength('🚀🚀🚀')).toBe(3);
    expect(codePointLength('x'.repeat(1000), 10)).toBe(11);
  });
});
