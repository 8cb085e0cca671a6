/**
 * Conditions use Python regular expressions (`re.search`). JavaScript's engine reads most of them
 * the same; this rewrites the Python-only spellings users actually write, and refuses what JS
 * cannot express rather than matching something else:
 * - leading global flags `(?i)`, `(?s)`, `(?m)` (and `(?a)`, `(?u)`, `(?L)`, which change nothing
 *   here) become JS flags; `(?x)` is refused;
 * - `(?P<name>…)` → `(?<name>…)`, `(?P=name)` → `\k<name>`;
 * - `\A` and `\Z` → start and end of the whole text, whatever the `m` flag.
 */
export type RegexTranslation = { ok: true; source: string; flags: string } | { ok: false; detail: string };

const START_OF_TEXT = '(?<![\\s\\S])';
const END_OF_TEXT = '(?![\\s\\S])';
const JS_FLAGS = ['i', 'm', 's'];

export function translatePythonRegex(pattern: string): RegexTranslation {
  let rest = pattern;
  let written = '';
  const leading = /^\(\?([aiLmsux]+)\)/.exec(rest);
  if (leading) {
    written = leading[1]!;
    if (written.includes('x'))
      return { ok: false, detail: 'Invalid regular expression: the verbose flag (?x) is not supported' };
    rest = rest.slice(leading[0].length);
  }
  const source = hasPythonOnlySpelling(rest) ? rewritten(rest) : rest;
  // The flags JavaScript knows, each once, in alphabetical order.
  const jsFlags = JS_FLAGS.filter((flag) => written.includes(flag)).join('');
  try {
    new RegExp(source, jsFlags);
  } catch (error) {
    const reason = (error as Error).message.replace(/^Invalid regular expression: \/.*\/\w*: /, '');
    return { ok: false, detail: `Invalid regular expression: ${reason}` };
  }
  return { ok: true, source, flags: jsFlags };
}

/** Whether `rewritten` could change the pattern: most patterns are copied as they are. */
const hasPythonOnlySpelling = (pattern: string): boolean =>
  pattern.includes('\\A') || pattern.includes('\\Z') || pattern.includes('(?P');

/** The pattern with `\A`, `\Z`, `(?P<name>` and `(?P=name)` in JavaScript's spelling. */
function rewritten(rest: string): string {
  let source = '';
  let inClass = false;
  for (let index = 0; index < rest.length; index++) {
    const character = rest[index]!;
    if (character === '\\') {
      const next = rest[index + 1];
      if (!inClass && next === 'A') source += START_OF_TEXT;
      else if (!inClass && next === 'Z') source += END_OF_TEXT;
      else source += character + (next ?? '');
      index++;
      continue;
    }
    if (inClass) {
      if (character === ']') inClass = false;
      source += character;
      continue;
    }
    if (character === '[') {
      inClass = true;
      source += character;
      // A `]` right after `[` or `[^` is a literal in both dialects.
      if (rest[index + 1] === '^') source += rest[++index];
      if (rest[index + 1] === ']') source += rest[++index];
      continue;
    }
    if (rest.startsWith('(?P<', index)) {
      source += '(?<';
      index += 3;
      continue;
    }
    // Only sliced where one can start: slicing at every character made long patterns quadratic.
    const backReference = rest.startsWith('(?P=', index) ? /^\(\?P=(\w+)\)/.exec(rest.slice(index)) : null;
    if (backReference) {
      source += `\\k<${backReference[1]}>`;
      index += backReference[0].length - 1;
      continue;
    }
    source += character;
  }
  return source;
}
