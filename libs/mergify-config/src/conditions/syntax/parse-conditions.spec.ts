import type { ConditionGroup, ConditionLeaf, ConditionNode } from '../condition-tree';
import { MAX_CONDITION_NESTING, parseConditions, parsePath } from './parse-conditions';

const leafOf = (text: string): ConditionLeaf => {
  const parsed = parseConditions(text);
  if (!parsed.ok) throw new Error(parsed.errors[0]!.message);
  return parsed.condition as ConditionLeaf;
};
const errorOf = (value: unknown, prefix = 'conditions') => {
  const parsed = parseConditions(value, prefix);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(value)}`);
  return parsed.errors;
};
const shape = (node: ConditionNode): unknown =>
  node.kind === 'leaf' ? node.label : { [node.kind]: node.children.map(shape) };

describe('parseConditions: the blocks', () => {
  it('reads a list as an implicit and, with nested and/or/not blocks', () => {
    const parsed = parseConditions(
      [
        'base=main',
        { or: ['label=a', { and: ['label=b', { not: 'draft' }] }] },
        { not: { or: ['x:y'.replace('x:y', 'title:y')] } },
      ],
      'queue_rules[0].merge_conditions',
    );
    expect(parsed.ok && shape(parsed.condition)).toEqual({
      and: [
        'base=main',
        { or: ['label=a', { and: ['label=b', { not: ['draft'] }] }] },
        { not: [{ or: ['title:y'] }] },
      ],
    });
    expect(parsed.ok && parsed.condition).toMatchObject({ kind: 'and', implicit: true, label: 'all of' });
  });

  it('reads true as a list that always matches, and a single string as one leaf', () => {
    expect(parseConditions(true)).toEqual({
      ok: true,
      condition: { kind: 'and', label: 'all of', implicit: true, children: [], location: [] },
    });
    expect(parseConditions('base=main', ['x'])).toMatchObject({
      ok: true,
      condition: { kind: 'leaf', location: ['x'] },
    });
  });

  it('locates every leaf under the prefix', () => {
    const parsed = parseConditions([{ or: ['label=a', 'label=b'] }], 'pull_request_rules[3].conditions');
    if (!parsed.ok || parsed.condition.kind === 'leaf') throw new Error('refused');
    const or = parsed.condition.children[0] as ConditionGroup;
    expect(or.children[1]!.location).toEqual(['pull_request_rules', 3, 'conditions', 0, 'or', 1]);
  });

  it('gives a text read again, in the same field or another sharing the memo, its own location', () => {
    const memo = new Map();
    const first = parseConditions(['label=a', { or: ['label=a'] }], ['x'], memo);
    const second = parseConditions(['label=a'], ['y'], memo);
    const leaves = (parsed: typeof first): ConditionNode[] =>
      parsed.ok && parsed.condition.kind !== 'leaf' ? parsed.condition.children : [];
    const [top, or] = leaves(first);
    expect(top).toMatchObject({ label: 'label=a', location: ['x', 0] });
    expect((or as ConditionGroup).children[0]).toMatchObject({
      label: 'label=a',
      location: ['x', 1, 'or', 0],
    });
    expect(leaves(second)[0]).toMatchObject({ label: 'label=a', location: ['y', 0] });
    expect(leaves(second)[0]).toEqual({ ...(top as ConditionLeaf), location: ['y', 0] });
  });

  it('reports every problem with its path, not just the first', () => {
    expect(
      errorOf(
        ['lable=x', 'base=main', { or: ['label=a', '#label>=two'] }, 7],
        'queue_rules[0].merge_conditions',
      ),
    ).toEqual([
      {
        path: 'queue_rules[0].merge_conditions[0]',
        location: ['queue_rules', 0, 'merge_conditions', 0],
        message: "Invalid condition 'lable=x'. Invalid attribute",
      },
      {
        path: 'queue_rules[0].merge_conditions[2].or[1]',
        location: ['queue_rules', 0, 'merge_conditions', 2, 'or', 1],
        message: "Invalid condition '#label>=two'. Invalid value 'two': expected an integer",
      },
      {
        path: 'queue_rules[0].merge_conditions[3]',
        location: ['queue_rules', 0, 'merge_conditions', 3],
        message: 'A condition is a string or a block with one of the keys and, or, not',
      },
    ]);
  });

  it.each([
    ['null', null, 'conditions'],
    ['false', false, 'conditions'],
    ['an unknown block', [{ xor: ['a'] }], 'conditions[0]'],
    ['two keys in a block', [{ and: ['base=main'], or: ['base=main'] }], 'conditions[0]'],
    ['an empty block', [{}], 'conditions[0]'],
    ['an and that is not a list', [{ and: 'base=main' }], 'conditions[0].and'],
    ['an empty or', [{ or: [] }], 'conditions[0].or'],
    ['a not holding a list', [{ not: ['draft'] }], 'conditions[0].not'],
    ['a not holding a not', [{ not: { not: 'draft' } }], 'conditions[0].not'],
    ['an empty leaf', ['base=main', '  '], 'conditions[1]'],
  ])('refuses %s at the right place', (_, value, path) => {
    expect(errorOf(value)[0]!.path).toBe(path);
  });

  it('holds a list to 500 conditions', () => {
    expect(parseConditions(Array.from({ length: 500 }, (_, i) => `label=${i}`)).ok).toBe(true);
    expect(errorOf([{ or: Array.from({ length: 501 }, (_, i) => `label=${i}`) }])[0]).toMatchObject({
      path: 'conditions[0].or',
      message: 'A condition list holds at most 500 conditions',
    });
  });

  it(`nests blocks at most ${MAX_CONDITION_NESTING} deep`, () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'base=main' : { and: [nest(levels - 1)] });
    expect(parseConditions([nest(MAX_CONDITION_NESTING)]).ok).toBe(true);
    expect(errorOf([nest(MAX_CONDITION_NESTING + 1)])[0]!.message).toMatch(/at most 8 levels/);
  });

  it('reads a path written as text back into steps', () => {
    expect(parsePath('queue_rules[10].merge_conditions[2].and')).toEqual([
      'queue_rules',
      10,
      'merge_conditions',
      2,
      'and',
    ]);
  });
});

describe('parseConditions: one condition', () => {
  it.each([
    ['base=main', { attribute: 'base', operator: '=', value: { kind: 'text', text: 'main' } }],
    ['base = main', { attribute: 'base', operator: '=', value: { kind: 'text', text: 'main' } }],
    ['base:main', { operator: '=' }],
    ['base==main', { operator: '=' }],
    ['base≠main', { operator: '!=' }],
    ['#files≥3', { length: true, operator: '>=', value: { kind: 'integer', value: 3 } }],
    ['#files≤3', { operator: '<=' }],
    ['#files>3', { operator: '>' }],
    ['#files<3', { operator: '<' }],
    ['-label=wip', { negated: true, attribute: 'label' }],
    ['- label = wip', { negated: true }],
    ['-#label>2', { negated: true, length: true }],
    // Operators as Mergify's schema allows them (issue 35).
    [
      'commits~=Feature',
      { attribute: 'commits', operator: '~=', value: { kind: 'regex', source: 'Feature' } },
    ],
    ['commits=Fix the build', { attribute: 'commits', operator: '=', value: { kind: 'text' } }],
    ['#commits>=2', { attribute: 'commits', length: true }],
    ['updates*=abc*', { attribute: 'updates', operator: '*=' }],
    ['updates!=abc', { attribute: 'updates', operator: '!=' }],
    ['#sender-permission>=write', { attribute: 'sender-permission', length: false, operator: '>=' }],
    ['label="work in progress"', { value: { kind: 'text', text: 'work in progress' } }],
    ["label='a=b'", { value: { kind: 'text', text: 'a=b' } }],
    ['body=""', { value: { kind: 'text', text: '' } }],
    ['title~=(?i)^wip', { operator: '~=', value: { kind: 'regex', source: '^wip', flags: 'i' } }],
    ['files*=src/**/*.{ts,tsx}', { operator: '*=', value: { kind: 'glob', pattern: 'src/**/*.{ts,tsx}' } }],
    ['merged', { attribute: 'merged', operator: null, value: { kind: 'none' } }],
    ['-closed', { attribute: 'closed', negated: true, operator: null }],
    [
      'merged-at>=2021-04-05',
      { attribute: 'merged-at', value: { kind: 'instant', iso: '2021-04-05T00:00:00.000Z' } },
    ],
    ['merged-by=alice', { attribute: 'merged-by' }],
    ['author={{ author }}', { value: { kind: 'author' } }],
    ['author={{author}}', { value: { kind: 'author' } }],
    ['approved-reviews-by=@acme/core', { value: { kind: 'team', org: 'acme', slug: 'core' } }],
    ['approved-reviews-by=@core', { value: { kind: 'team', org: null, slug: 'core' } }],
    [
      'check-success=@github-actions/pep8',
      { value: { kind: 'qualified-check', app: 'github-actions', name: 'pep8' } },
    ],
    ['check-success=ci / build (ubuntu)', { value: { kind: 'text', text: 'ci / build (ubuntu)' } }],
    ['commits[0].author=alice', { attribute: 'commits[0].author', commit: { index: 0, field: 'author' } }],
    ['commits[-1].commit_message~=^fix', { commit: { index: -1, field: 'commit_message' } }],
    [
      'commits[*].date_committer<365 days ago',
      { commit: { index: '*', field: 'date_committer' }, family: 'timestamp' },
    ],
    ['-commits[*].commit_verification_verified', { negated: true, family: 'boolean' }],
    ['commits[*].commit_verification_verified=false', { value: { kind: 'boolean', value: false } }],
    ['#commits>1', { attribute: 'commits', length: true }],
    ['#commits-behind>0', { attribute: 'commits-behind' }],
    ['#added-lines<500', { attribute: 'added-lines' }],
    ['queue-position=-1', { value: { kind: 'integer', value: -1 } }],
    ['queue-dequeue-reason=checks-failed', { value: { kind: 'dequeue-reason', code: 'CHECKS_FAILED' } }],
    ['queue-dequeue-reason~=^CHECKS', { value: { kind: 'regex', source: '^CHECKS', flags: '' } }],
    ['github-review-decision=approved', { value: { kind: 'text', text: 'APPROVED' } }],
    ['sender-permission>=write', { value: { kind: 'permission', permission: 'write' } }],
    [
      'updated-at<14 days 3 hours 2 minutes ago',
      { value: { kind: 'relative', milliseconds: ((14 * 24 + 3) * 60 + 2) * 60_000 } },
    ],
    ['updated-at<1 day ago', { value: { kind: 'relative', milliseconds: 86_400_000 } }],
    ['created-at>2013-12-05T07:19:04-08:00', { value: { kind: 'instant', iso: '2013-12-05T15:19:04.000Z' } }],
    [
      'created-at>2013-12-05T07:19:04[Europe/Paris]',
      { value: { kind: 'instant', iso: '2013-12-05T06:19:04.000Z' } },
    ],
    ['created-at>2008-09-22T14:01:54Z', { value: { kind: 'instant', iso: '2008-09-22T14:01:54.000Z' } }],
    [
      'schedule=Mon-Fri 09:00-19:00[America/Vancouver]',
      {
        value: {
          kind: 'schedule',
          schedule: {
            timezone: 'America/Vancouver',
            days: [1, 2, 3, 4, 5],
            times: { start: { hour: 9, minute: 0 }, end: { hour: 19, minute: 0 } },
          },
        },
      },
    ],
    [
      'schedule!=SAT-SUN',
      {
        operator: '!=',
        value: { kind: 'schedule', schedule: { timezone: 'UTC', days: [6, 7], times: null } },
      },
    ],
    [
      'schedule=friday-monday',
      { value: { kind: 'schedule', schedule: { timezone: 'UTC', days: [1, 5, 6, 7], times: null } } },
    ],
    [
      'schedule=1,3,5',
      { value: { kind: 'schedule', schedule: { timezone: 'UTC', days: [1, 3, 5], times: null } } },
    ],
    ['current-datetime>=2030-01-01T00:00', { value: { kind: 'instant', iso: '2030-01-01T00:00:00.000Z' } }],
    ['current-datetime=XXXX-07-14T14:00/XXXX-07-14T19:00[Europe/Paris]', { value: { kind: 'interval' } }],
  ])('%s', (text, expected) => expect(leafOf(text)).toMatchObject(expected));

  it('picks the longest attribute the text starts with', () => {
    expect(leafOf('merged-at<2020-01-01').attribute).toBe('merged-at');
    expect(leafOf('merged').attribute).toBe('merged');
    expect(leafOf('check-success-or-neutral=ci').attribute).toBe('check-success-or-neutral');
    expect(leafOf('body-raw~=x').attribute).toBe('body-raw');
  });

  it.each([
    ['', 'Condition empty'],
    ['lable=x', 'Invalid attribute'],
    ['labels=x', 'Invalid attribute'],
    ['label', 'Missing operator and value for attribute `label`'],
    ['label ?= x', 'Invalid operator'],
    ['label=', 'Missing value after `=` (write "" for empty text)'],
    ['label="wip', 'Unbalanced quotes'],
    ['label=\'wip"', 'Unbalanced quotes'],
    ['draft=true', 'Operators are invalid for Boolean attribute: `draft`'],
    ['commits-behind>2', '`#` modifier is required for attribute: `commits-behind`'],
    ['#number>2', 'The `#` modifier is not allowed with attribute `number`'],
    ['#draft', 'The `#` modifier is not allowed with attribute `draft`'],
    [
      '-created-at<3 days ago',
      'The `-` modifier is not allowed with attribute `created-at`; write the opposite comparison instead',
    ],
    [
      '-schedule=Mon',
      'The `-` modifier is not allowed with attribute `schedule`; write the opposite comparison instead',
    ],
    [
      'created-at=2020-01-01',
      'Operator `=` is not allowed with attribute `created-at`; use one of `>=`, `<=`, `<`, `>`',
    ],
    ['milestone*=v1*', 'Operator `*=` is not allowed with attribute `milestone`'],
    ['#label~=x', 'Operator `~=` is not allowed with `#` `label`'],
    ['number~=1', 'Operator `~=` is not allowed with attribute `number`'],
    ['schedule>Mon', 'Operator `>` is not allowed with attribute `schedule`'],
    ['queue-dequeue-reason*=x', 'Operator `*=` is not allowed with attribute `queue-dequeue-reason`'],
    ['number=abc', "Invalid value 'abc': expected an integer"],
    ['number={{ author }}', 'Invalid value: {{ author }} only stands for text values'],
    ['created-at>{{ author }}', 'Invalid value: {{ author }} only stands for text values'],
    ['created-at>yesterday', 'Invalid timestamp'],
    ['created-at>2020-13-01', 'Invalid timestamp'],
    ['created-at>2020-01-01[Mars/Base]', "Invalid timezone 'Mars/Base'"],
    ['current-datetime>3 days ago', 'compares with a fixed time'],
    ['current-datetime=2023-01-01', 'Invalid interval'],
    ['current-datetime=2023-01-01T00:00Z/2023-01-02T00:00[Europe/Paris]', 'give one timezone for both sides'],
    ['schedule=Someday', "Invalid day 'Someday'"],
    ['schedule=Mon-Fri 9-17', 'Invalid time range'],
    ['schedule=25:00-26:00', 'Invalid time range'],
    ['schedule=09:00-17:00[Nowhere/Land]', "Invalid timezone 'Nowhere/Land'"],
    ['schedule=09:00-10:00 11:00-12:00', 'two time ranges'],
    ['title~=(unclosed', 'Invalid regular expression'],
    ['title~=(?x)a b', 'verbose flag'],
    ['files*=src/{a,b', "Invalid glob: unbalanced '{'"],
    ['files*=src/a}', "Invalid glob: unbalanced '}'"],
    ['files*={,}', 'only empty branches'],
    ['author~=@acme/core', 'Regular expressions are not supported for team slugs'],
    ['author*=@acme/*', 'Globs are not supported for team slugs'],
    ['author>@acme/core', 'Teams are compared with `=` and `!=` only'],
    ['author=@acme/core/x', "Invalid team '@acme/core/x'"],
    ['check-success=@github-actions', "Invalid check '@github-actions'"],
    ['queue-dequeue-reason=bored', "Invalid value 'bored': not a queue dequeue reason"],
    ['github-review-decision=maybe', "Invalid value 'maybe'"],
    ['sender-permission>=god', "Invalid permission 'god'"],
    ['commits[x].author=a', "Invalid commit index 'x'"],
    ['commits[0].sha=abc', "Invalid commit attribute 'sha'"],
    ['commits[0].commit_verification_verified=yes', "Invalid value 'yes': expected true or false"],
    ['queue-frozen', 'Invalid attribute `queue-frozen`: it was removed on 2025-02-25'],
    ['status-success=ci', 'Invalid attribute `status-success`: it was replaced by `check-success`'],
    ['github-review-approved', 'is evaluated internally by Mergify'],
  ])('refuses %j: %s', (text, detail) => {
    const [error] = errorOf(text);
    expect(error!.message.startsWith(`Invalid condition '${text}'. `)).toBe(true);
    expect(error!.message).toContain(detail);
  });
});
