import fc from 'fast-check';
import { translateGlob } from './glob-pattern';
import { compileLinearRegex } from '@switchyard/kernel';
import { translatePythonRegex } from './python-regex';

/**
 * Validation does not compile patterns (RE2's compilation costs about 70 µs each, and a 1 MB file
 * holds thousands): the translators check structure themselves. Held here: whatever they accept,
 * RE2 compiles; whatever they are given, they answer (accept or refuse), never throw.
 */
const REGEX_PIECES = [
  'a',
  'b',
  '.',
  '^',
  '$',
  '|',
  '(',
  ')',
  '(?:',
  '(?P<n>',
  '(?i:',
  '(?-i:',
  '(?#c)',
  '[',
  ']',
  '[^',
  '-',
  '*',
  '+',
  '?',
  '*?',
  '{2}',
  '{,3}',
  '{2,}',
  '{1,2}',
  '{',
  '}',
  '\\d',
  '\\W',
  '\\s',
  '\\S',
  '\\b',
  '\\A',
  '\\Z',
  '\\1',
  '\\0',
  '\\x41',
  '\\u00e9',
  '\\n',
  '\\\\',
  '\\.',
  '\\[',
  '\\]',
  'é',
  '😀',
  '(?=',
  '(?a)',
  ' ',
];
const GLOB_PIECES = ['a', '/', '*', '**', '?', '[', ']', '[!', '-', '{', '}', ',', '\\', '.', 'é', 'z'];

const patternOf = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((p) => p.join(''));

describe('patterns the translators accept compile on RE2', () => {
  it('Python regexes', () =>
    fc.assert(
      fc.property(patternOf(REGEX_PIECES), (pattern) => {
        const translated = translatePythonRegex(pattern);
        if (translated.ok) compileLinearRegex(translated.source, translated.flags);
      }),
      { numRuns: 5000 },
    ));

  it('globs', () =>
    fc.assert(
      fc.property(patternOf(GLOB_PIECES), (pattern) => {
        const translated = translateGlob(pattern);
        if (translated.ok) compileLinearRegex(translated.source, 's');
      }),
      { numRuns: 5000 },
    ));
});
