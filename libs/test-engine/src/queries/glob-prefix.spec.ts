import picomatch from 'picomatch';
import { seededRandom } from '@switchyard/kernel';
import { GLOB_OPTIONS, globNarrowing, regexLiteralPrefix } from './glob-prefix';

const GLOB_PIECES = [
  'a',
  'b',
  'A',
  '_',
  '%',
  '.',
  '/',
  './',
  '::',
  '*',
  '**',
  '?',
  '[ab]',
  '[!a]',
  '{a,b}',
  '@(a|b)',
  '!(a)',
  '+(a)',
  '(',
  ')',
  '|',
  '$',
  '^',
  '"',
  '\\*',
  '\\',
  '-',
  ' ',
  'é',
  '😀',
];
const NAME_PIECES = [
  'a',
  'b',
  'A',
  '_',
  '%',
  '.',
  '/',
  './',
  '::',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '|',
  '$',
  '"',
  '\\',
  '-',
  ' ',
  'é',
  '😀',
];

function corpus(pieces: readonly string[], count: number, seed: number): string[] {
  // Seeded, so a failure names the same glob every run.
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from({ length: random.int(1, 5) }, () => random.pick(pieces)).join(''),
  );
}

const compiles = (glob: string) => {
  try {
    picomatch.makeRe(glob, GLOB_OPTIONS);
    return true;
  } catch {
    return false;
  }
};

const HAND_GLOBS = [
  'suite/test_12*',
  './suite/a*',
  '././a*',
  'a/**',
  'a/**/b',
  '**/a',
  '!a*',
  'a"b"*',
  'a\\*b',
  'a?',
  '{a,b}c',
  'a{b,c}',
  'a@(b|c)',
  'a+(b)',
  'a!(b)',
  'a[bc]',
  '[!a]b',
  'a|b',
  'a$',
  'x😀?',
  'a_b%c*',
  'tests/*::test_?ack',
];
const GLOBS = [...HAND_GLOBS, ...corpus(GLOB_PIECES, 1000, 7)].filter(compiles);
const NAMES = [
  ...new Set([
    ...corpus(NAME_PIECES, 1500, 11),
    ...GLOBS,
    'suite/test_12.py::test_12',
    'suite/test_120',
    'suite/test_13',
    'suite/a',
    'a',
    'ab',
    'a/b',
    'a/x/b',
    'abc',
    'a"b"c',
    'a*b',
    'aXb',
    'bc',
    'ac',
    'abb',
    'a|b',
    'a$',
    'x😀',
    'x😀y',
    'a_b%cd',
    'tests/t.py::test_back',
  ]),
];

describe('glob narrowing', () => {
  it('reads the prefix picomatch really requires, through its rewrites of the glob', () => {
    const prefixOf = (glob: string) => globNarrowing(glob).prefix;
    expect(prefixOf('suite/test_12*')).toBe('suite/test_12');
    expect(prefixOf('./suite/a*')).toBe('suite/a'); // picomatch drops a leading ./
    expect(prefixOf('a/**')).toBe('a'); // …and matches `a` itself
    expect(prefixOf('a\\*b')).toBe('a*b');
    expect(prefixOf('a{b,c}')).toBe('a');
    expect(prefixOf('{a,b}c')).toBe('');
    expect(prefixOf('!a*')).toBe('');
    expect(prefixOf('**/a')).toBe('');
  });

  it('stops at alternatives, repeats, optional characters and classes', () => {
    expect(regexLiteralPrefix('^(?:ab|cd)$')).toBe('');
    expect(regexLiteralPrefix('^(?:a(?:bc)?d)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:ab?c)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:a\\/+b)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:a\\db)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:a[)|]b)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:a(?:[|]b)c)$')).toBe('a');
    expect(regexLiteralPrefix('^(?:\\uD83D\\uDE00x)$')).toBe('');
  });

  it('keeps every name picomatch matches: those starting with the prefix, and the glob itself', () => {
    const missed: string[] = [];
    for (const glob of GLOBS) {
      const matches = picomatch(glob, GLOB_OPTIONS);
      const { prefix, exact } = globNarrowing(glob);
      for (const name of NAMES)
        if (matches(name) && !name.startsWith(prefix) && name !== exact) missed.push(`${glob} → ${name}`);
    }
    expect(missed).toEqual([]);
  });

  it('narrows: most globs of the corpus have a prefix', () => {
    const withPrefix = GLOBS.filter((glob) => globNarrowing(glob).prefix !== '');
    expect(withPrefix.length).toBeGreaterThan(GLOBS.length / 2);
  });
});
