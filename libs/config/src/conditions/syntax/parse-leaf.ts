import type { CommitSelector, ConditionLeaf, LeafValue, PathStep } from '../condition-tree';
import {
  ATTRIBUTE_NAMES_LONGEST_FIRST,
  ATTRIBUTES,
  type AttributeSpec,
  COMMIT_FIELDS,
  DEQUEUE_REASONS,
  INTERNAL_ATTRIBUTES,
  RETIRED_ATTRIBUTES,
  SENDER_PERMISSIONS,
  type SenderPermission,
} from './attributes';
import { isOrdering, type Operator, readOperator, startsOperator } from './operators';
import { parseDateTimeInterval } from './values/datetime-interval';
import { translateGlob } from './values/glob-pattern';
import { translatePythonRegex } from './values/python-regex';
import { parseSchedule } from './values/schedule';
import { parseTimestamp } from './values/timestamp';

/**
 * One condition string, `[-][#]<attribute>[ <operator> <value>]` (queue-semantics §5.1), read into a
 * leaf or refused with the reason. The attribute is the longest known name the text starts with,
 * so `merged-at` is not read as `merged`; spaces around the operator are optional.
 */
export type LeafParse = { ok: true; leaf: ConditionLeaf } | { ok: false; detail: string };

const COUNT_OPERATORS: readonly Operator[] = ['=', '!=', '>=', '<=', '<', '>'];
const AUTHOR_PLACEHOLDER = /^\{\{\s*author\s*\}\}$/;
const REVIEW_DECISIONS = ['APPROVED', 'CHANGES_REQUESTED', 'REVIEW_REQUIRED'];

const refuse = (detail: string): LeafParse => ({ ok: false, detail });

export function parseConditionLeaf(text: string, location: PathStep[] = []): LeafParse {
  const label = text.trim();
  if (label === '') return refuse('Condition empty');
  let rest = label;
  const negated = rest.startsWith('-');
  if (negated) rest = rest.slice(1).trimStart();
  const hashed = rest.startsWith('#');
  if (hashed) rest = rest.slice(1).trimStart();

  const named = readAttribute(rest);
  if (!named.ok) return named;
  const { attribute, spec, commit } = named;
  rest = rest.slice(named.width).trim();

  if (negated && !spec.negatable)
    return refuse(
      `The \`-\` modifier is not allowed with attribute \`${attribute}\`; write the opposite comparison instead`,
    );
  if (hashed && spec.length === 'forbidden')
    return refuse(`The \`#\` modifier is not allowed with attribute \`${attribute}\``);
  const length = hashed && spec.length !== 'ignored';
  if (!length && spec.length === 'required')
    return refuse(`\`#\` modifier is required for attribute: \`${attribute}\``);

  const leaf = (operator: Operator | null, value: LeafValue): LeafParse => ({
    ok: true,
    leaf: {
      kind: 'leaf',
      label,
      location,
      negated,
      length,
      attribute,
      family: spec.family,
      commit,
      operator,
      value,
    },
  });
  if (rest === '') {
    if (spec.family === 'boolean') return leaf(null, { kind: 'none' });
    return refuse(`Missing operator and value for attribute \`${attribute}\``);
  }
  if (spec.family === 'boolean' && spec.operators.length === 0)
    return refuse(`Operators are invalid for Boolean attribute: \`${attribute}\``);
  const read = readOperator(rest);
  if (!read) return refuse('Invalid operator');
  const { operator } = read;
  const allowed = length ? COUNT_OPERATORS : spec.operators;
  if (!allowed.includes(operator))
    return refuse(
      `Operator \`${operator}\` is not allowed with ${length ? '`#`' : 'attribute'} \`${attribute}\`; use one of ${allowed.map((op) => `\`${op}\``).join(', ')}`,
    );
  const value = parseValue(rest.slice(read.width).trim(), operator, length, attribute, spec);
  if ('detail' in value) return refuse(value.detail);
  return leaf(operator, value);
}

type NamedAttribute =
  | { ok: true; attribute: string; spec: AttributeSpec; commit: CommitSelector | null; width: number }
  | { ok: false; detail: string };

function readAttribute(text: string): NamedAttribute {
  const commit = text.startsWith('commits[') ? /^commits\[([^\]]*)\]\.([A-Za-z_]+)/.exec(text) : null;
  if (commit) {
    const index = commit[1]!.trim();
    if (index !== '*' && !/^-?\d+$/.test(index))
      return { ok: false, detail: `Invalid commit index '${index}': use a position (0, -1) or *` };
    const spec = COMMIT_FIELDS[commit[2]!];
    if (!spec)
      return {
        ok: false,
        detail: `Invalid commit attribute '${commit[2]}': use one of ${Object.keys(COMMIT_FIELDS).join(', ')}`,
      };
    if (!boundary(text[commit[0].length])) return { ok: false, detail: 'Invalid attribute' };
    return {
      ok: true,
      attribute: `commits[${index}].${commit[2]}`,
      spec,
      commit: { index: index === '*' ? '*' : Number(index), field: commit[2]! },
      width: commit[0].length,
    };
  }
  const name = attributeNameAt(text);
  if (name === undefined) return { ok: false, detail: 'Invalid attribute' };
  if (RETIRED_ATTRIBUTES[name])
    return { ok: false, detail: `Invalid attribute \`${name}\`: ${RETIRED_ATTRIBUTES[name]}` };
  if (INTERNAL_ATTRIBUTES.includes(name))
    return {
      ok: false,
      detail: `Attribute \`${name}\` is evaluated internally by Mergify and cannot be used in conditions`,
    };
  return { ok: true, attribute: name, spec: ATTRIBUTES[name]!, commit: null, width: name.length };
}

const KNOWN_NAMES = new Set(ATTRIBUTE_NAMES_LONGEST_FIRST);

/**
 * The longest attribute name the text starts with, followed by a space, an operator or nothing.
 * The name as a word (letters and dashes) is tried first; the scan of every name only runs for
 * text that does not start with a known word.
 */
function attributeNameAt(text: string): string | undefined {
  const word = leadingWord(text);
  if (word !== '' && KNOWN_NAMES.has(word) && boundary(text[word.length])) return word;
  return ATTRIBUTE_NAMES_LONGEST_FIRST.find(
    (candidate) => text.startsWith(candidate) && boundary(text[candidate.length]),
  );
}

/** The text's leading `[a-z][a-z-]*`, or '': scanned rather than matched, once per condition text. */
function leadingWord(text: string): string {
  const first = text.charCodeAt(0);
  if (!(first >= 0x61 && first <= 0x7a)) return '';
  let end = 1;
  for (; end < text.length; end += 1) {
    const code = text.charCodeAt(end);
    if (!((code >= 0x61 && code <= 0x7a) || code === 0x2d)) break;
  }
  return text.slice(0, end);
}

const boundary = (next: string | undefined): boolean =>
  next === undefined || /\s/.test(next) || startsOperator(next);

type ValueParse = LeafValue | { detail: string };

function unquote(text: string): string | { detail: string } {
  const first = text[0];
  if (first !== '"' && first !== "'") return text;
  if (text.length < 2 || text[text.length - 1] !== first) return { detail: 'Unbalanced quotes' };
  return text.slice(1, -1);
}

function parseValue(
  raw: string,
  operator: Operator,
  length: boolean,
  attribute: string,
  spec: AttributeSpec,
): ValueParse {
  const unquoted = unquote(raw);
  if (typeof unquoted !== 'string') return unquoted;
  if (raw === '') return { detail: `Missing value after \`${operator}\` (write "" for empty text)` };
  const isAuthor = AUTHOR_PLACEHOLDER.test(unquoted);
  const textual = !length && (spec.family === 'text' || spec.family === 'text-list');
  if (isAuthor && !textual) return { detail: 'Invalid value: {{ author }} only stands for text values' };

  if (length || spec.family === 'number' || spec.family === 'count') {
    if (!/^-?\d+$/.test(unquoted)) return { detail: `Invalid value '${unquoted}': expected an integer` };
    return { kind: 'integer', value: Number(unquoted) };
  }
  switch (spec.family) {
    case 'boolean': {
      const flag = unquoted.toLowerCase();
      if (flag !== 'true' && flag !== 'false')
        return { detail: `Invalid value '${unquoted}': expected true or false` };
      return { kind: 'boolean', value: flag === 'true' };
    }
    case 'timestamp':
    case 'current-datetime':
      return parseTimeValue(unquoted, operator, spec);
    case 'schedule': {
      const parsed = parseSchedule(unquoted);
      return parsed.ok ? { kind: 'schedule', schedule: parsed.schedule } : { detail: parsed.detail };
    }
    case 'permission': {
      const permission = unquoted.toLowerCase();
      if (!SENDER_PERMISSIONS.includes(permission as SenderPermission))
        return { detail: `Invalid permission '${unquoted}': use one of ${SENDER_PERMISSIONS.join(', ')}` };
      return { kind: 'permission', permission: permission as SenderPermission };
    }
    default:
      return parseTextValue(unquoted, operator, attribute, spec, isAuthor);
  }
}

function parseTimeValue(text: string, operator: Operator, spec: AttributeSpec): ValueParse {
  if (spec.family === 'current-datetime' && !isOrdering(operator)) {
    const parsed = parseDateTimeInterval(text);
    return parsed.ok ? { kind: 'interval', interval: parsed.interval } : { detail: parsed.detail };
  }
  const parsed = parseTimestamp(text);
  if (!parsed.ok) return { detail: parsed.detail };
  if (parsed.kind === 'relative') {
    if (spec.family === 'current-datetime')
      return { detail: 'Invalid value: `current-datetime` compares with a fixed time, not a relative one' };
    return { kind: 'relative', milliseconds: parsed.milliseconds };
  }
  return { kind: 'instant', iso: parsed.iso };
}

function parseTextValue(
  text: string,
  operator: Operator,
  attribute: string,
  spec: AttributeSpec,
  isAuthor: boolean,
): ValueParse {
  if (operator === '~=') {
    if (spec.meaning === 'login' && text.startsWith('@'))
      return { detail: 'Regular expressions are not supported for team slugs' };
    const translated = translatePythonRegex(text);
    return translated.ok
      ? { kind: 'regex', source: translated.source, flags: translated.flags }
      : { detail: translated.detail };
  }
  if (operator === '*=') {
    if (spec.meaning === 'login' && text.startsWith('@'))
      return { detail: 'Globs are not supported for team slugs' };
    const translated = translateGlob(text);
    return translated.ok ? { kind: 'glob', pattern: text } : { detail: translated.detail };
  }
  if (isAuthor) return { kind: 'author' };
  if (spec.meaning === 'login' && text.startsWith('@')) {
    const team = /^@([^\s/@]+)(?:\/([^\s/@]+))?$/.exec(text);
    if (!team) return { detail: `Invalid team '${text}': write @organization/team or @team` };
    if (operator !== '=' && operator !== '!=') return { detail: 'Teams are compared with `=` and `!=` only' };
    return team[2] === undefined
      ? { kind: 'team', org: null, slug: team[1]! }
      : { kind: 'team', org: team[1]!, slug: team[2] };
  }
  if (spec.meaning === 'check' && text.startsWith('@')) {
    const qualified = /^@([A-Za-z0-9][A-Za-z0-9_.-]*)\/(.+)$/.exec(text);
    if (!qualified)
      return {
        detail: `Invalid check '${text}': a check bound to a GitHub App is written @<app-slug>/<name>`,
      };
    return { kind: 'qualified-check', app: qualified[1]!, name: qualified[2]! };
  }
  if (spec.meaning === 'dequeue-reason') {
    const code = text.toUpperCase().replace(/-/g, '_');
    if (!(DEQUEUE_REASONS as readonly string[]).includes(code))
      return { detail: `Invalid value '${text}': not a queue dequeue reason` };
    return { kind: 'dequeue-reason', code };
  }
  if (attribute === 'github-review-decision') {
    const decision = text.toUpperCase().replace(/-/g, '_');
    if (!REVIEW_DECISIONS.includes(decision))
      return { detail: `Invalid value '${text}': use one of ${REVIEW_DECISIONS.join(', ')}` };
    return { kind: 'text', text: decision };
  }
  return { kind: 'text', text };
}
