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
 *
 * The structure is checked here as Python checks it (balanced groups, something to repeat, one
 * quantifier at a time, ordered ranges), so RE2 compiles what this accepts (held to it by
 * python-regex.property.spec.ts) and validation does not pay RE2's compilation, about 70 µs a
 * pattern: that is done once, when a condition is first evaluated.
 */
export type RegexTranslation = { ok: true; source: string; flags: string } | { ok: false; detail: string };

class Refusal extends Error {}

interface Scope {
  multiline: boolean;
  ascii: boolean;
}

/** What came last, for the quantifier that may follow: nothing to repeat, an atom, a quantifier. */
type Previous = 'nothing' | 'atom' | 'quantifier';

/** One member of a set: its RE2 text, its code point when it is one character, whether a bare `-`. */
interface SetMember {
  text: string;
  codePoint: number | null;
  dash: boolean;
}

const MAX_NESTING = 1000;
const CONTROL_CODES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const ZERO_WIDTH_ESCAPES = new Set(['A', 'Z', 'z', 'b', 'B']);

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
    return { ok: true, source, flags };
  } catch (error) {
    if (error instanceof Refusal)
      return { ok: false, detail: `Invalid regular expression: ${error.message}` };
    throw error;
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
  private previous: Previous = 'nothing';

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
    if (this.scopes.length > 1) throw new Refusal('missing ), unterminated subpattern');
    return source;
  }

  private next(): string {
    const character = this.text[this.index]!;
    switch (character) {
      case '\\':
        return this.escape();
      case '[':
        this.previous = 'atom';
        return this.characterSet();
      case '(':
        return this.group();
      case ')':
        this.index++;
        if (this.scopes.length === 1) throw new Refusal('unbalanced parenthesis');
        this.scopes.pop();
        this.previous = 'atom';
        return ')';
      case '|':
      case '^':
        this.index++;
        this.previous = 'nothing';
        return character;
      case '$':
        this.index++;
        this.previous = 'nothing';
        // Without `m`, Python's `$` also matches right before a final newline; RE2's only at the end.
        return this.scope.multiline ? '$' : '(?:\\n?$)';
      case '{':
        return this.brace();
      case '*':
      case '+':
      case '?':
        this.index++;
        return this.repeat(character);
      default: {
        this.previous = 'atom';
        const one = String.fromCodePoint(this.text.codePointAt(this.index)!);
        this.index += one.length;
        return character === '}' || character === ']' ? `\\${character}` : one;
      }
    }
  }

  /** A quantifier, as Python allows it: after something repeatable, and not after another one. */
  private repeat(quantifier: string): string {
    if (this.previous === 'nothing') throw new Refusal('nothing to repeat');
    if (this.previous === 'quantifier') throw new Refusal('multiple repeat');
    this.previous = 'quantifier';
    return quantifier + this.quantifierMode();
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
      this.previous = 'atom';
      return '\\{';
    }
    this.index = REPEAT.lastIndex;
    const [, low = '', comma, high = ''] = match;
    for (const count of [low, high])
      if (count !== '' && Number(count) > MAX_REPEAT)
        throw new Refusal(`repetition counts above ${MAX_REPEAT} are not supported (got ${count})`);
    if (comma !== undefined && low !== '' && high !== '' && Number(low) > Number(high))
      throw new Refusal('min repeat greater than max repeat');
    return this.repeat(comma === undefined ? `{${low}}` : `{${low === '' ? '0' : low},${high}}`);
  }

  private escape(): string {
    const character = this.text[this.index + 1];
    if (character === undefined) throw new Refusal('bad escape (end of pattern)');
    this.index += 2;
    this.previous = ZERO_WIDTH_ESCAPES.has(character) ? 'nothing' : 'atom';
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
    const members: SetMember[] = [];
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
        else members.push(member);
        continue;
      }
      const one = String.fromCodePoint(this.text.codePointAt(this.index)!);
      this.index += one.length;
      // `[`, `]` and `^` are literals in a Python set; unescaped, RE2 would read `[:alpha:]` as a class.
      const escaped = '[]^-\\'.includes(one) ? `\\${one}` : one;
      members.push({ text: escaped, codePoint: one.codePointAt(0)!, dash: one === '-' });
    }
    const body = withRanges(members);
    if (!nonWord) return `[${negated ? '^' : ''}${body}]`;
    if (negated)
      throw new Refusal(
        '\\W inside a negated set is not supported: add the (?a) flag or list the characters',
      );
    return body === '' ? UNICODE_NON_WORD : `(?:[${body}]|${UNICODE_NON_WORD})`;
  }

  /** An escape inside a set: a member, or null for Unicode `\W`. */
  private setEscape(): SetMember | null {
    const character = this.text[this.index + 1];
    if (character === undefined) throw new Refusal('bad escape (end of pattern)');
    this.index += 2;
    const one = (text: string, codePoint: number): SetMember => ({ text, codePoint, dash: false });
    if (character >= '0' && character <= '7') {
      const octal = this.octal(character);
      return one(octal, parseInt(octal.slice(3, -1), 16));
    }
    if (character === '8' || character === '9') throw new Refusal(`bad escape \\${character}`);
    if (SHORTHANDS.has(character)) {
      const members = shorthandMembers(character as Shorthand, this.scope.ascii);
      return members === null ? null : { text: members, codePoint: null, dash: false };
    }
    if (character === 'b') return one(codePoint(8), 8);
    if (CONTROL_ESCAPES.has(character)) return one(`\\${character}`, CONTROL_CODES[character]!);
    const text = this.sharedEscape(character);
    return one(text, text.startsWith('\\x{') ? parseInt(text.slice(3, -1), 16) : character.codePointAt(0)!);
  }

  private enter(scope: Scope): void {
    this.scopes.push(scope);
    this.previous = 'nothing';
  }

  private group(): string {
    if (this.scopes.length > MAX_NESTING) throw new Refusal(`groups nest more than ${MAX_NESTING} deep`);
    if (this.text[this.index + 1] !== '?') {
      this.index++;
      this.enter({ ...this.scope });
      return '(';
    }
    const kind = this.text[this.index + 2];
    switch (kind) {
      case ':':
        this.index += 3;
        this.enter({ ...this.scope });
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
    this.enter({ ...this.scope });
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
    this.enter({
      multiline: on.includes('m') ? true : off.includes('m') ? false : scope.multiline,
      ascii: on.includes('a') ? true : on.includes('u') ? false : scope.ascii,
    });
    const re2On = RE2_FLAGS.filter((flag) => on.includes(flag)).join('');
    const re2Off = RE2_FLAGS.filter((flag) => off.includes(flag)).join('');
    return `(?${re2On}${re2Off ? `-${re2Off}` : ''}:`;
  }
}

/** A set's members written for RE2, `a-z` ranges checked as Python checks them. */
function withRanges(members: SetMember[]): string {
  let body = '';
  for (let index = 0; index < members.length; index++) {
    const from = members[index]!;
    const dash = members[index + 1];
    const to = members[index + 2];
    if (dash?.dash && to !== undefined) {
      if (from.codePoint === null || to.codePoint === null)
        throw new Refusal('bad character range: a range cannot start or end with \\d, \\w or \\s');
      if (from.codePoint > to.codePoint) throw new Refusal('bad character range: its start is after its end');
      body += `${from.text}-${to.text}`;
      index += 2;
    } else body += from.text;
  }
  return body;
}
