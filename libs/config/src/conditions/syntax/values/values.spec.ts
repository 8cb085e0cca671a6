import picomatch from 'picomatch';
import { expandGlob } from './glob';
import { translatePythonRegex } from './python-regex';

describe('Python regular expressions', () => {
  it.each([
    ['(?i)wip', 'wip', 'i', 'WIP: thing', true],
    ['(?is)a.b', 'a.b', 'is', 'A\nB', true],
    ['(?P<kind>fix|feat): (?P=kind)', '(?<kind>fix|feat): \\k<kind>', '', 'fix: fix', true],
    ['\\Afix', '(?<![\\s\\S])fix', '', 'fix: x', true],
    ['\\Afix', '(?<![\\s\\S])fix', '', 'a\nfix', false],
    ['done\\Z', 'done(?![\\s\\S])', '', 'all done', true],
    ['[\\A]', '[\\A]', '', 'A', true],
    ['^feat', '^feat', '', 'a feat', false],
    ['feat', 'feat', '', 'a feat', true],
    ['C:\\\\Apps', 'C:\\\\Apps', '', 'C:\\Apps', true],
    ['(?i)^services/[^/]+/.*\\.(py|ts)$', '^services/[^/]+/.*\\.(py|ts)$', 'i', 'SERVICES/a/b.PY', true],
  ])('%s', (pattern, source, flags, text, expected) => {
    const translated = translatePythonRegex(pattern);
    expect(translated).toEqual({ ok: true, source, flags });
    if (translated.ok) expect(new RegExp(translated.source, translated.flags).test(text)).toBe(expected);
  });

  it.each(['(', '[a-', '(?x)a b', 'a(?i)b', '*a'])('refuses %j', (pattern) =>
    expect(translatePythonRegex(pattern)).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^Invalid regular expression/),
    }),
  );
});

describe('globs', () => {
  const matches = (pattern: string, path: string) => {
    const expanded = expandGlob(pattern);
    if (!expanded.ok) throw new Error(expanded.detail);
    return picomatch(expanded.patterns, { dot: true, nobrace: true })(path);
  };

  it.each([
    ['**/*.py', 'a/b/c.py', true],
    ['**/*.py', 'c.py', true],
    ['*.py', 'a/c.py', false],
    ['assets/**', 'assets/x/y.png', true],
    ['assets/**/*', 'assets/x.png', true],
    ['src/?.ts', 'src/a.ts', true],
    ['src/?.ts', 'src/ab.ts', false],
    ['src/[a-c].ts', 'src/b.ts', true],
    ['src/[!a-c].ts', 'src/b.ts', false],
    ['web/**/*.{js,jsx,ts,tsx}', 'web/app/x.tsx', true],
    ['{src,tests}/**/*.{py,pyi}', 'tests/unit/a.pyi', true],
    ['{a,b{c,d}}', 'bd', true],
    ['foo{,.txt}', 'foo.txt', true],
    ['foo{,.txt}', 'foo', false],
    ['a\\{b\\}', 'a{b}', true],
    ['{x\\,y,z}', 'x,y', true],
    ['[{]x[}]', '{x}', true],
    ['.github/**', '.github/workflows/ci.yml', true],
  ])('%s on %s → %s', (pattern, path, expected) => expect(matches(pattern, path)).toBe(expected));

  it.each([
    ['{a,b', "unbalanced '{'"],
    ['a}', "unbalanced '}'"],
    ['{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}', 'more than 128'],
    ['{'.repeat(33) + 'a' + '}'.repeat(33), 'more than 32'],
  ])('refuses %s', (pattern, detail) =>
    expect(expandGlob(pattern)).toEqual({ ok: false, detail: expect.stringContaining(detail) }),
  );

  it('allows exactly 128 alternatives', () => {
    expect(expandGlob('{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}').ok).toBe(true);
  });
});
