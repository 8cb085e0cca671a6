import picomatch from 'picomatch';
import { seededRandom } from '@switchyard/kernel';
import { testNameGlobPrefix, testNameMatcher } from './test-name-glob';

/** The rules, the slow and obvious way: a table over the name's code points. */
function reference(glob: string, name: string): boolean {
  const tokens: Array<'*' | '?' | { literal: string }> = [];
  const characters = [...glob];
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i]!;
    if (character === '\\' && i + 1 < characters.length) tokens.push({ literal: characters[++i]! });
    else if (character === '*' || character === '?') tokens.push(character);
    else tokens.push({ literal: character });
  }
  const text = [...name];
  // matches[i][j]: the first i tokens match the first j characters.
  const matches = Array.from({ length: tokens.length + 1 }, () =>
    new Array<boolean>(text.length + 1).fill(false),
  );
  matches[0]![0] = true;
  tokens.forEach((token, i) => {
    for (let j = 0; j <= text.length; j++) {
      if (token === '*') matches[i + 1]![j] = matches[i]![j]! || (j > 0 && matches[i + 1]![j - 1]!);
      else if (j > 0)
        matches[i + 1]![j] =
          matches[i]![j - 1]! && (token === '?' ? text[j - 1] !== '/' : text[j - 1] === token.literal);
    }
  });
  return matches[tokens.length]![text.length]!;
}

function corpus(pieces: readonly string[], count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: random.int(1, 6) }, () => random.pick(pieces)).join(''),
  );
}

const matches = (glob: string, name: string) => testNameMatcher([glob])(name);

describe('test_name globs', () => {
  it('* is any run of characters, / and :: included; ? one character but /; the rest is literal', () => {
    expect(matches('tests/*', 'tests/unit/test_a.py::test_b')).toBe(true);
    expect(matches('*::test_?ack', 'tests/t.py::test_back')).toBe(true);
    expect(matches('*::test_?ack', 'tests/t.py::test_/ack')).toBe(false);
    expect(matches('a?', 'a😀')).toBe(true);
    expect(matches('*', '')).toBe(true);
    expect(matches('a*', 'line one\nline two')).toBe(false);
    expect(matches('l*', 'line one\nline two')).toBe(true);
    // Brackets, braces, parentheses and bars are the test's name, not patterns.
    expect(matches('test_x[1-2]', 'test_x[1-2]')).toBe(true);
    expect(matches('test_x[1-2]', 'test_x1')).toBe(false);
    expect(matches('{a,b}c', 'ac')).toBe(false);
    expect(matches('test_y(a|b)*', 'test_y(a|b) slow')).toBe(true);
    expect(matches('!a*', 'b')).toBe(false);
    expect(matches('.*', 'x')).toBe(false);
    expect(matches('a$^+.', 'a$^+.')).toBe(true);
    // A backslash makes the next character literal; a last one is itself.
    expect(matches('a\\*b', 'a*b')).toBe(true);
    expect(matches('a\\*b', 'axb')).toBe(false);
    expect(matches('a\\\\b', 'a\\b')).toBe(true);
    expect(matches('a\\', 'a\\')).toBe(true);
    expect(testNameMatcher(['x*', 'y?'])('yz')).toBe(true);
    expect(testNameMatcher([])('anything')).toBe(false);
  });

  it('matches as the rules say, over generated globs and names', () => {
    const pieces = [
      'a',
      'b',
      '/',
      '::',
      '.',
      '_',
      '%',
      '*',
      '?',
      '\\',
      '\\*',
      '[',
      ']',
      '{',
      ',',
      '}',
      'é',
      '😀',
      '\n',
    ];
    const globs = corpus(pieces, 300, 3);
    const names = [
      ...new Set([
        ...corpus(
          pieces.filter((p) => p !== '\\*'),
          600,
          5,
        ),
        ...globs,
      ]),
    ];
    const wrong: string[] = [];
    for (const glob of globs) {
      const matcher = testNameMatcher([glob]);
      for (const name of names)
        if (matcher(name) !== reference(glob, name))
          wrong.push(`${JSON.stringify(glob)} ${JSON.stringify(name)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('matches what picomatch matched for the globs the spec describes (* and ? among plain characters)', () => {
    // picomatch's own extras are out: braces, classes, quotes, `**` segments, `./`, a leading `!`,
    // a name equal to the glob matching whatever the glob says (`a\\*b` the name `a\\*b`), and its
    // slips (`a*$$` read its second `$` as the end of the name).
    const globPieces = ['a', 'b', 'A', '_', '%', '/', '::', '-', ' ', 'é', '*', '?', '\\*'];
    const namePieces = ['a', 'b', 'A', '_', '%', '/', '::', '-', ' ', 'é', '*', '?', '$'];
    const globs = corpus(globPieces, 500, 7).filter((glob) => !glob.includes('**'));
    const names = [
      ...new Set([...corpus(namePieces, 800, 11), ...globs.filter((glob) => !glob.includes('\\'))]),
    ];
    const options = { bash: true, dot: true };
    const changed: string[] = [];
    for (const glob of globs) {
      const before = picomatch(glob, options);
      const now = testNameMatcher([glob]);
      for (const name of names)
        if (before(name) !== now(name)) changed.push(`${JSON.stringify(glob)} ${JSON.stringify(name)}`);
    }
    expect(changed).toEqual([]);
  });

  it('narrows: every name a glob matches begins with its literal prefix', () => {
    expect(testNameGlobPrefix('suite/test_12*')).toBe('suite/test_12');
    expect(testNameGlobPrefix('a\\*b?')).toBe('a*b');
    expect(testNameGlobPrefix('*a')).toBe('');
    const pieces = ['a', 'b', '/', '_', '%', '*', '?', '\\*', '\\', 'é', '😀'];
    const globs = corpus(pieces, 400, 13);
    const names = [...new Set([...corpus(pieces, 800, 17), ...globs])];
    const missed: string[] = [];
    for (const glob of globs) {
      const [prefix, matcher] = [testNameGlobPrefix(glob), testNameMatcher([glob])];
      for (const name of names)
        if (matcher(name) && !name.startsWith(prefix)) missed.push(`${glob} → ${name}`);
    }
    expect(missed).toEqual([]);
  });
});
