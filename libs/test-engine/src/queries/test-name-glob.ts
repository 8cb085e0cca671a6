import { compileLinearRegex, regexLiteral } from '@switchyard/kernel';

/**
 * The globs of `test_name` and `test_name_exclude` (spec: "supports glob patterns * and ?"): `*`
 * is any run of characters, `/` and `::` included, so `tests/*` takes every test under tests/; `?`
 * is one character other than `/`; `\` makes the next character literal (`\*`, `\?`, `\\`); every
 * other character stands for itself, brackets, braces and parentheses included (test names carry
 * them: `test_x[1-2]`, `test_y(a|b)`).
 *
 * Matched by RE2 (`compileLinearRegex`), in time linear in the name, whatever the glob: picomatch,
 * before, made `*a*a*a*a*a*a*a*a*b` a JavaScript regular expression that took seconds on a name of
 * forty `a`, holding the event loop (and every other request) meanwhile.
 */
type Piece = { kind: 'literal'; text: string } | { kind: 'any' } | { kind: 'one' };

function piecesOf(glob: string): Piece[] {
  const pieces: Piece[] = [];
  const characters = [...glob];
  for (let index = 0; index < characters.length; index++) {
    const character = characters[index]!;
    if (character === '*') {
      if (pieces[pieces.length - 1]?.kind !== 'any') pieces.push({ kind: 'any' });
    } else if (character === '?') pieces.push({ kind: 'one' });
    else if (character === '\\' && index + 1 < characters.length)
      pieces.push({ kind: 'literal', text: characters[++index]! });
    else pieces.push({ kind: 'literal', text: character });
  }
  return pieces;
}

/** The glob as an RE2 pattern of the whole name (to run with the `s` flag: `*` crosses newlines). */
export function testNameGlobSource(glob: string): string {
  const body = piecesOf(glob)
    .map((piece) => {
      if (piece.kind === 'any') return '.*';
      if (piece.kind === 'one') return '[^/]';
      return regexLiteral(piece.text);
    })
    .join('');
  return `^(?:${body})$`;
}

/** Whether a name matches any of the globs: one RE2 program for them all, made once. */
export function testNameMatcher(globs: readonly string[]): (name: string) => boolean {
  if (globs.length === 0) return () => false;
  const regex = compileLinearRegex(globs.map(testNameGlobSource).join('|'), 's');
  return (name) => regex.test(name);
}

/**
 * What every name the glob matches begins with: its characters before the first `*` or `?`.
 * SQL narrows on it through the (repository, test_name text_pattern_ops) index.
 */
export function testNameGlobPrefix(glob: string): string {
  let prefix = '';
  for (const piece of piecesOf(glob)) {
    if (piece.kind !== 'literal') break;
    prefix += piece.text;
  }
  return prefix;
}
