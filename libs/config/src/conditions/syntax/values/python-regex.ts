import { compileLinearRegex } from './linear-regex';
import { type Shorthand, shorthandAtom, shorthandMembers, UNICODE_NON_WORD } from './python-character-sets';

/**
 * Conditions use Python regular expressions (`re.search`); Switchyard matches them with RE2
 * (`re2js`), whose time is linear in the text whatever the pattern, so no pattern written in a
 * `.mergify.yml` can hold the service. This rewrites the Python spellings into RE2's and refuses,
 * saying why, what RE2 cannot do or Python itself refuses:
 * - kept as written: literals, `.`, `^`, `|`, groups, classes, `*` `+` `?` `{m,n}` and their lazy
 *   forms, `\A`, `\b`, `\B`, the escapes `\a \f \n \r \t \v \xhh`;
 * - rewritten: `$` without the `m` flag (Python's also matches before a final newline), `\Z`,
 *   `\uXXXX`, `\UXXXXXXXX`, octal escapes, `{,n}`, `(?P<name>…)`, `(?#…)`, a `[` inside a set (a
 *   literal in Python, a POSIX class in RE2), and `\d \w \s \D \W \S`, which Python reads over
 *   Unicode unless the `a` flag is set;
 * - refused: backreferences (`\1`, `(?P=name)`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), atomic
 *   groups and possessive quantifiers, conditionals `(?(1)…)`, the verbose flag `x`, the locale
 *   flag `L`, `\N{…}`, repetition counts above 1000, `\W` inside a negated set, flags that are not
 *   at the start, escapes Python calls bad (`\p`, `\Q`, …).
 * `\b` and `\B` stay ASCII word boundaries: RE2 has no Unicode ones.
 */
export type RegexTranslation = { ok: true; source: string; flags: string } | { ok: false; detail: string };

class Refusal extends Error {}

interface Scope {
  multiline: boolean;
  ascii: boolean;
}

const MAX_REPEAT = 1000;
const RE2_FLAGS = ['i', 'm', 's'];
const GLOBAL_FLAGS = /\(\?([a-zA-Z]+)\)/y;
const SCOPED_FLAGS = /([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/y;
const REPEAT = /\{(\d*)(?:(,)(\d*))?\}/y;
const GROUP_NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const OCTAL = /[0-7]/;
const HEX = /^[0-9a-fA-F]+$/;
const SHORTHANDS = new Set(['d', 'D', 'w', 'W', 's', 'S']);
const CONTROL_ESCAPES = new Set(['a', 'f', 'n', 'r', 't', 'v']);

export function translatePythonRegex(pattern: string): RegexTranslation {
  try {
    const { flags, scope, start } = readGlobalFlags(pattern);
    const source = new Translator(pattern, start, scope).translate();
    compileLinearRegex(source, flags);
    return { ok: true, source, flags };
  } catch (error) {
    if (error instanceof Refusal)
      return { ok: false, detail: `Invalid regular expression: ${error.message}` };
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { ok: false, detail: `Invalid regular expression: ${reason}` };
  }
}

/** The `(?aiLmsux)` groups a pattern may start with: they apply to the whole pattern. */
function readGlobalFlags(pattern: string): { flags: string; scope: Scope; start: number } {
  let letters = '';
  let start = 0;
  for (;;) {
    GLOBAL_FLAGS.lastIndex = start;
    const match = GLOBAL_FLAGS.exec(pattern);
    if (!match) break;
    letters += match[1];
    start = GLOBAL_FLAGS.lastIndex;
  }
  checkFlagLetters(letters, '');
  return {
    flags: RE2_FLAGS.filter((flag) => letters.includes(flag)).join(''),
    scope: { multiline: letters.includes('m'), ascii: letters.includes('a') },
    start,
  };
}

function checkFlagLetters(on: string, off: string): void {
  for (const letter of on + off)
    if (!'aiLmsux'.includes(letter)) throw new Refusal(`unknown flag '${letter}'`);
  if ((on + off).includes('x'))
    throw new Refusal(
      'the verbose flag (?x) is not supported: write the pattern without spaces and comments',
    );
  if (on.includes('L')) throw new Refusal('the locale flag (?L) cannot be used with a text pattern');
  if (on.includes('a') && on.includes('u')) throw new Refusal("flags 'a' and 'u' are incompatible");
  if (/[aLu]/.test(off)) throw new Refusal("flags 'a', 'u' and 'L' cannot be turned off");
}

const codePoint = (value: number): string => `\\x{${value.toString(16)}}`;

/** A character that stands for itself: ASCII punctuation is escaped, anything else written as is. */
function literal(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x80 && !/[A-Za-z0-9\s]/.test(character) ? `\\${character}` : character;
}

class Translator {
  private readonly scopes: Scope[];

  constructor(
    private readonly text: string,
    private index: number,
    global: Scope,
  ) {
    this.scopes = [global];
  }

  private get scope(): Scope {
    return this.scopes[this.scopes.length - 1]!;
  }

  translate(): string {
    let source = '';
    while (this.index < this.text.length) source += this.next();
    return source;
  }

  private next(): string {
    const character = this.text[this.index]!;
    switch (character) {
      case '\\':
        return this.escape();
      case '[':
        return this.characterSet();
      case '(':
        return this.group();
      case ')':
        this.index++;
        if (this.scopes.length > 1) this.scopes.pop();
        return ')';
      case '$':
        this.index++;
        // Without `m`, Python's `$` also matches right before a final newline; RE2's only at the end.
        return this.scope.multiline ? '$' : '(?:\\n?$)';
      case '{':
        return this.brace();
      case '}':
      case ']':
        this.index++;
        return `\\${character}`;
      case '*':
      case '+':
      case '?':
        this.index++;
        return character + this.quantifierMode();
      default:
        this.index++;
        return character;
    }
  }

  /** `?` after a quantifier makes it lazy (RE2 has that); `+` makes it possessive (RE2 does not). */
  private quantifierMode(): string {
    const next = this.text[this.index];
    if (next === '?') {
      this.index++;
      return '?';
    }
    if (next === '+')
      throw new Refusal(
        'possessive quantifiers (*+, ++, ?+, {m,n}+) are not supported by the linear-time engine',
      );
    return '';
  }

  /** `{m,n}`, `{m}`, `{,n}`, `{m,}` repeat; any other `{` is a literal, as in Python. */
  private brace(): string {
    REPEAT.lastIndex = this.index;
    const match = REPEAT.exec(this.text);
    if (!match || (match[2] === undefined && match[1] === '')) {
      this.index++;
      return '\\{';
    }
    this.index = REPEAT.lastIndex;
    const [, low = '', comma, high = ''] = match;
    for (const count of [low, high])
      if (count !== '' && Number(count) > MAX_REPEAT)
        throw new Refusal(`repetition counts above ${MAX_REPEAT} are not supported (got ${count})`);
    const repeat = comma === undefined ? `{${low}}` : `{${low === '' ? '0' : low},${high}}`;
    return repeat + this.quantifierMode();
  }

  private escape(): string {
    const character = this.text[this.index + 1];
    if (character === undefined) throw new Refusal('bad escape (end of pattern)');
    this.index += 2;
    if (character >= '0' && character <= '9') return this.numericEscape(character);
    if (SHORTHANDS.has(character)) return shorthandAtom(character as Shorthand, this.scope.ascii);
    if (CONTROL_ESCAPES.has(character) || character === 'A' || character === 'b' || character === 'B')
      return `\\${character}`;
    if (character === 'Z' || character === 'z') return '\\z';
    return this.sharedEscape(character);
  }

  /** Escapes read alike inside and outside a set. */
  private sharedEscape(character: string): string {
    switch (character) {
      case 'x':
        return this.hexEscape(2, character);
      case 'u':
        return this.hexEscape(4, character);
      case 'U':
        return this.hexEscape(8, character);
      case 'N':
        throw new Refusal('named Unicode escapes (\\N{…}) are not supported: write the character itself');
    }
    if (/[A-Za-z]/.test(character)) throw new Refusal(`bad escape \\${character}`);
    return literal(character);
  }

  private hexEscape(digits: number, letter: string): string {
    const hex = this.text.slice(this.index, this.index + digits);
    if (hex.length < digits || !HEX.test(hex)) throw new Refusal(`incomplete escape \\${letter}${hex}`);
    const value = parseInt(hex, 16);
    if (value > 0x10ffff) throw new Refusal(`bad escape \\${letter}${hex}`);
    this.index += digits;
    return codePoint(value);
  }

  /** `\0`, `\012`, `\123` are octal; `\1` to `\99` otherwise are references to a group. */
  private numericEscape(first: string): string {
    const [second, third] = [this.text[this.index], this.text[this.index + 1]];
    if (first === '0') return this.octal(first);
    if (OCTAL.test(first) && second && third && OCTAL.test(second) && OCTAL.test(third))
      return this.octal(first);
    throw new Refusal(
      'backreferences (\\1, (?P=name)) are not supported: conditions run on a linear-time engine (RE2)',
    );
  }

  /** Up to three octal digits in all, the first already read. */
  private octal(first: string): string {
    let digits = first;
    while (digits.length < 3 && OCTAL.test(this.text[this.index] ?? '')) digits += this.text[this.index++];
    const value = parseInt(digits, 8);
    if (value > 0o377) throw new Refusal(`octal escape value \\${digits} outside of range 0-0o377`);
    return codePoint(value);
  }

  private characterSet(): string {
    this.index++;
    const negated = this.text[this.index] === '^';
    if (negated) this.index++;
    let members = '';
    let nonWord = false;
    for (let first = true; ; first = false) {
      const character = this.text[this.index];
      if (character === undefined) throw new Refusal('unterminated character set');
      if (character === ']' && !first) {
        this.index++;
        break;
      }
      if (character === '\\') {
        const member = this.setEscape();
        if (member === null) nonWord = true;
        else members += member;
        continue;
      }
      this.index++;
      // A `[` is a literal in a Python set; unescaped, RE2 would read `[:alpha:]` as a POSIX class.
      members += character === '[' || character === ']' ? `\\${character}` : character;
    }
    if (!nonWord) return `[${negated ? '^' : ''}${members}]`;
    if (negated)
      throw new Refusal(
        '\\W inside a negated set is not supported: add the (?a) flag or list the characters',
      );
    return members === '' ? UNICODE_NON_WORD : `(?:[${members}]|${UNICODE_NON_WORD})`;
  }

  /** An escape inside a set: its members, or null for Unicode `\W`. */
  private setEscape(): string | null {
    const character = this.text[this.index + 1];
    if (character === undefined) throw new Refusal('bad escape (end of pattern)');
    this.index += 2;
    if (character >= '0' && character <= '7') return this.octal(character);
    if (character === '8' || character === '9') throw new Refusal(`bad escape \\${character}`);
    if (SHORTHANDS.has(character)) return shorthandMembers(character as Shorthand, this.scope.ascii);
    if (character === 'b') return codePoint(8);
    if (CONTROL_ESCAPES.has(character)) return `\\${character}`;
    return this.sharedEscape(character);
  }

  private group(): string {
    if (this.text[this.index + 1] !== '?') {
      this.index++;
      this.scopes.push({ ...this.scope });
      return '(';
    }
    const kind = this.text[this.index + 2];
    switch (kind) {
      case ':':
        this.index += 3;
        this.scopes.push({ ...this.scope });
        return '(?:';
      case 'P':
        return this.namedGroup();
      case '=':
      case '!':
        throw new Refusal(
          `lookahead (?${kind}…) is not supported: conditions run on a linear-time engine (RE2)`,
        );
      case '<': {
        const after = this.text[this.index + 3];
        if (after === '=' || after === '!')
          throw new Refusal(
            `lookbehind (?<${after}…) is not supported: conditions run on a linear-time engine (RE2)`,
          );
        throw new Refusal('unknown extension ?<: a named group is written (?P<name>…)');
      }
      case '>':
        throw new Refusal('atomic groups (?>…) are not supported by the linear-time engine');
      case '(':
        throw new Refusal('conditional groups (?(…)…) are not supported by the linear-time engine');
      case '#': {
        const end = this.text.indexOf(')', this.index);
        if (end === -1) throw new Refusal('missing ), unterminated comment');
        this.index = end + 1;
        return '';
      }
      default:
        return this.scopedFlags();
    }
  }

  private namedGroup(): string {
    const kind = this.text[this.index + 3];
    if (kind === '=')
      throw new Refusal(
        'backreferences (\\1, (?P=name)) are not supported: conditions run on a linear-time engine (RE2)',
      );
    if (kind !== '<') throw new Refusal(`unknown extension ?P${kind ?? ''}`);
    const end = this.text.indexOf('>', this.index + 4);
    if (end === -1) throw new Refusal('missing >, unterminated name');
    const name = this.text.slice(this.index + 4, end);
    if (!GROUP_NAME.test(name)) throw new Refusal(`bad character in group name '${name}'`);
    this.index = end + 1;
    this.scopes.push({ ...this.scope });
    // Only whether the text matches counts, so the name is not needed.
    return '(';
  }

  private scopedFlags(): string {
    SCOPED_FLAGS.lastIndex = this.index + 2;
    const match = SCOPED_FLAGS.exec(this.text);
    if (!match) throw new Refusal(`unknown extension ?${this.text[this.index + 2] ?? ''}`);
    const [, on = '', off = '', end] = match;
    if (end === ')') throw new Refusal('global flags not at the start of the expression');
    checkFlagLetters(on, off);
    this.index = SCOPED_FLAGS.lastIndex;
    const scope = this.scope;
    this.scopes.push({
      multiline: on.includes('m') ? true : off.includes('m') ? false : scope.multiline,
      ascii: on.includes('a') ? true : on.includes('u') ? false : scope.ascii,
    });
    const re2On = RE2_FLAGS.filter((flag) => on.includes(flag)).join('');
    const re2Off = RE2_FLAGS.filter((flag) => off.includes(flag)).join('');
    return `(?${re2On}${re2Off ? `-${re2Off}` : ''}:`;
  }
}
