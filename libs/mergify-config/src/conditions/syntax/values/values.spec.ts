import { expandGlob } from './glob';
import { translateGlob } from './glob-pattern';
import { compileLinearRegex } from '@switchyard/kernel';
import { translatePythonRegex } from './python-regex';

describe('Python regular expressions', () => {
  const search = (pattern: string, text: string): boolean => {
    const translated = translatePythonRegex(pattern);
    if (!translated.ok) throw new Error(translated.detail);
    return compileLinearRegex(translated.source, translated.flags).test(text);
  };

  it.each([
    ['(?i)wip', 'wip', 'i'],
    ['(?is)a.b', 'a.b', 'is'],
    ['(?i)(?s)a.b', 'a.b', 'is'],
    ['(?P<kind>fix|feat): ', '(fix|feat): ', ''],
    ['\\Afix', '\\Afix', ''],
    ['done\\Z', 'done\\z', ''],
    ['^feat$', '^feat(?:\\n?$)', ''],
    ['(?m)^feat$', '^feat$', 'm'],
    ['a{,3}', 'a{0,3}', ''],
    ['{foo}', '\\{foo\\}', ''],
    ['[[:alpha:]]', '[\\[:alpha:]\\]', ''],
    ['\\u00e9\\x41\\101\\0', '\\x{e9}\\x{41}\\x{41}\\x{0}', ''],
    ['a(?#note)b', 'ab', ''],
    ['(?a)\\w+\\d', '\\w+\\d', ''],
    ['(?i:x)y', '(?i:x)y', ''],
  ])('%s is written %s for RE2', (pattern, source, flags) =>
    expect(translatePythonRegex(pattern)).toEqual({ ok: true, source, flags }),
  );

  // What Python's re.search answers for each (checked with CPython 3.11).
  it.each([
    ['(?i)wip', 'WIP: thing', true],
    ['(?is)a.b', 'A\nB', true],
    ['^feat', 'a feat', false],
    ['feat', 'a feat', true],
    ['\\Afix', 'a\nfix', false],
    ['(?m)^fix', 'a\nfix', true],
    ['done$', 'all done\n', true],
    ['done\\Z', 'all done\n', false],
    ['done$', 'done\nmore', false],
    ['(?m)done$', 'done\nmore', true],
    ['C:\\\\Apps', 'C:\\Apps', true],
    ['(?i)^services/[^/]+/.*\\.(py|ts)$', 'SERVICES/a/b.PY', true],
    ['\\w+', 'été', true],
    ['^\\w+$', 'été', true],
    ['(?a)^\\w+$', 'été', false],
    ['^\\d$', '٣', true],
    ['^\\s$', '\u00a0', true],
    ['^[\\s]$', '\u2003', true],
    ['^[^\\S]$', '\u3000', true],
    ['^[\\S]$', '\u3000', false],
    ['^[\\Wa]+$', 'a-a', true],
    ['^[\\Wa]+$', 'ab', false],
    ['a{,3}b', 'aab', true],
    ['{foo}', 'x{foo}', true],
    ['[[:alpha:]]', 'b', false],
    ['[[:alpha:]]', ':]', true],
    ['^(a+)+$', 'a'.repeat(30) + '!', false],
    ['^(WIP|Draft)\\b', 'WIP: x', true],
    ['(?i:wip) now', 'WIP now', true],
    ['(?i:wip) now', 'WIP NOW', false],
    ['[\\b]', '\b', true],
    ['\\x41\\u0042', 'AB', true],
  ])('%j searched in %j → %s', (pattern, text, expected) => expect(search(pattern, text)).toBe(expected));

  it.each([
    ['(', 'missing ), unterminated subpattern'],
    [')', 'unbalanced parenthesis'],
    ['a**', 'multiple repeat'],
    ['a{2}{3}', 'multiple repeat'],
    ['a|*', 'nothing to repeat'],
    ['\\b*', 'nothing to repeat'],
    ['a{3,2}', 'min repeat greater than max repeat'],
    ['[z-a]', 'bad character range'],
    ['[\\d-z]', 'bad character range'],
    ['[a-', 'unterminated character set'],
    ['(?x)a b', 'verbose flag'],
    ['a(?i)b', 'global flags not at the start'],
    ['*a', 'nothing to repeat'],
    ['^(?!.*\\.(go|cpp)).*$', 'lookahead (?!…) is not supported'],
    ['(?=a)', 'lookahead (?=…) is not supported'],
    ['(?<=a)b', 'lookbehind (?<=…) is not supported'],
    ['(?<!a)b', 'lookbehind (?<!…) is not supported'],
    ['to 0\\.\\1\\.', 'backreferences'],
    ['(?P<kind>a)(?P=kind)', 'backreferences'],
    ['a*+', 'possessive quantifiers'],
    ['a{2}+', 'possessive quantifiers'],
    ['(?>a)', 'atomic groups'],
    ['(a)?(?(1)b|c)', 'conditional groups'],
    ['(?<name>a)', 'a named group is written (?P<name>…)'],
    ['a{1001}', 'repetition counts above 1000'],
    ['[^\\Wa]', '\\W inside a negated set'],
    ['\\pL', 'bad escape \\p'],
    ['\\Qa\\E', 'bad escape \\Q'],
    ['\\N{DASH}', 'named Unicode escapes'],
    ['(?L)a', 'locale flag'],
    ['(?au)a', "flags 'a' and 'u' are incompatible"],
    ['(?U)a', "unknown flag 'U'"],
    ['\\x4', 'incomplete escape \\x4'],
    ['a\\', 'bad escape (end of pattern)'],
  ])('refuses %j: %s', (pattern, reason) =>
    expect(translatePythonRegex(pattern)).toEqual({
      ok: false,
      detail: expect.stringContaining(reason),
    }),
  );

  it('refuses with the "Invalid regular expression" prefix', () =>
    expect(translatePythonRegex('(?=a)')).toEqual({
      ok: false,
      detail: expect.stringMatching(/^Invalid regular expression: /),
    }));
});

describe('globs', () => {
  const matches = (pattern: string, path: string) => {
    const translated = translateGlob(pattern);
    if (!translated.ok) throw new Error(translated.detail);
    return compileLinearRegex(translated.source, 's').test(path);
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
    ['*/x', 'a/x', true],
    ['*/x', '/x', false],
    ['src/[^a].ts', 'src/^.ts', true],
    ['src/[^a].ts', 'src/b.ts', false],
    ['src/[!a].ts', 'src/b.ts', true],
    ['src/[!a]', 'src//', false],
    ['a[b', 'a[b', true],
    ['x[z-a]y', 'xby', false],
    ['[?]', '?', true],
    ['*a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(40), false],
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
