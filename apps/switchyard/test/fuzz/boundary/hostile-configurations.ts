import fc from 'fast-check';
import { hostileString } from '../hostile-text';

/**
 * Patterns that take a backtracking engine exponential or polynomial time on the right text, and
 * syntax RE2 lacks or Python spells its own way: the regex engine must answer every one of them
 * (a verdict, or a 422 for what it refuses) without holding the event loop.
 */
export const HOSTILE_PATTERNS = [
  '^(a+)+$',
  '^(a|a)+$',
  '^(a|aa)+$',
  '^(a*)*$',
  '((a*)*)*b',
  '^(\\w+\\s?)*$',
  '(x+x+)+y',
  '(.*a){20}',
  '^([a-zA-Z]+)*$',
  '(a)\\1',
  '(?=a)a',
  '(?<!b)a',
  '(?P<name>a)(?P=name)',
  '(?i)ABC',
  'a{99999}',
  'a{2,1}',
  '(',
  '[',
  '\\',
  '.*'.repeat(50),
];

const ATTRIBUTES = ['title', 'body', 'head', 'base', 'label', 'files', 'author'];

const condition = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...HOSTILE_PATTERNS), fc.boolean())
      .map(([attribute, pattern, negated]) => `${negated ? '-' : ''}${attribute}~=${pattern}`),
  },
  { weight: 1, arbitrary: hostileString.map((text) => `title~=${text}`) },
);

const quoted = (text: string) => JSON.stringify(text);

/**
 * `.mergify.yml` files whose conditions carry hostile regexes, in queue rules, pull request rules
 * and priority rules, for the three simulators.
 */
export const hostileConfiguration: fc.Arbitrary<string> = fc
  .tuple(fc.array(condition, { minLength: 1, maxLength: 4 }), fc.constantFrom('pull', 'queue', 'priority'))
  .map(([conditions, where]) => {
    const list = conditions.map((text) => `      - ${quoted(text)}`).join('\n');
    if (where === 'queue') return `queue_rules:\n  - name: default\n    queue_conditions:\n${list}\n`;
    if (where === 'priority')
      return `priority_rules:\n  - name: p\n    conditions:\n${list}\n    priority: high\n`;
    return `pull_request_rules:\n  - name: r\n    conditions:\n${list}\n    actions:\n      label:\n        add: [x]\n`;
  });
