import { OUTCOMES } from '@switchyard/activity-log';
import { ACCEPTED_EVENT_TYPE_FILTERS } from '@switchyard/activity-log-contract';
import fc from 'fast-check';
import { oddInstant, oddNaiveDateTime, oddNumberText, oddTimeZone } from './hostile-text';

/**
 * Values close to what a real client sends, at and just past each documented limit, so fuzzed
 * requests get through validation often enough to reach the deciders, the projections and SQL.
 */

export const reasonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('INC-42: main is red', 'Holidays', 'x'.repeat(255), '😀'.repeat(255), 'x'.repeat(256)),
  fc.string({ maxLength: 80 }),
);

/** A naive wall time from 2000 to 2100, the range real freezes use. */
const usualNaiveDateTime: fc.Arbitrary<string> = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T23:59:59Z'), noInvalidDate: true })
  .map((at) => at.toISOString().slice(0, 19));

export const naiveDateTime: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 4, arbitrary: usualNaiveDateTime },
  { weight: 3, arbitrary: oddNaiveDateTime },
  { weight: 1, arbitrary: fc.constant(null) },
);

export const instantText: fc.Arbitrary<string> = fc.oneof(
  fc
    .date({
      min: new Date('2026-01-01T00:00:00Z'),
      max: new Date('2026-04-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((at) => at.toISOString()),
  oddInstant,
);

export const timeZone: fc.Arbitrary<string> = oddTimeZone;

const conditionLeaf = fc.oneof(
  fc.constantFrom('base=main', 'label=hotfix', '-draft', '#approved-reviews-by>=2', '', ' '),
  fc.string({ maxLength: 30 }),
);

/** Condition lists: leaves and and/or/not groups, sometimes nested past the domain's own limit. */
export const conditionList: fc.Arbitrary<unknown> = fc.letrec<{ list: unknown[]; condition: unknown }>(
  (tie) => ({
    list: fc.array(tie('condition'), { maxLength: 4 }),
    condition: fc.oneof(
      { depthSize: 'medium', maxDepth: 12 },
      conditionLeaf,
      fc.record({ and: tie('list') }),
      fc.record({ or: tie('list') }),
      fc.record({ not: tie('condition') }),
    ),
  }),
).list;

export const pullNumberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 1, max: 2000 }).map(String),
  oddNumberText,
  fc.constantFrom('0', '-1', '2147483646', '2147483647', '1.0', 'abc', ''),
);

export const eventTypeText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...ACCEPTED_EVENT_TYPE_FILTERS),
  fc.constantFrom('queue.pause.create', 'action.queue.unknown', ''),
);

export const outcomeText: fc.Arbitrary<string> = fc.constantFrom(...OUTCOMES, 'SUCCESS', 'other');

export const perPageText: fc.Arbitrary<string> = fc.constantFrom(
  '1',
  '10',
  '100',
  '0',
  '101',
  '-1',
  '1e1',
  'ten',
);

const epochMs = fc.oneof(
  fc.integer({ min: Date.parse('2026-02-20T00:00:00Z'), max: Date.parse('2026-03-03T00:00:00Z') }),
  fc.constantFrom(
    -62198755200000, // 0000-01-01
    -62135596800001, // a millisecond before 0001-01-01
    253402300800000, // 10000-01-01
    8.64e15,
    8.64e15 + 1,
    -8.64e15 - 1,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    0,
    -1,
  ),
);

/** Cursors shaped like the ones GET logs issues, carrying any instants and ids, and plain garbage. */
export const logCursorText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        d: fc.constantFrom('n', 'p', 'x'),
        t: epochMs,
        i: fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom(-1, Number.MAX_SAFE_INTEGER)),
        f: epochMs,
        u: epochMs,
      })
      .map((cursor) => Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url')),
  },
  {
    weight: 1,
    arbitrary: fc.string({ maxLength: 40 }).map((text) => Buffer.from(text, 'utf8').toString('base64url')),
  },
  { weight: 1, arbitrary: fc.constantFrom('', 'e30', 'bnVsbA', 'W10', '!!!', 'a'.repeat(3000)) },
);

/** Test names and branches as the CLI sends them, and what no store can hold. */
export const testNameText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('tests/test_login.py::test_login', 'suite > case', 'x'.repeat(10001), 'a\u0000b', '\ud800'),
  fc.string(),
);

/** Cursors shaped like the ones GET quarantines issues, in any order, and garbage. */
export const quarantineCursorText: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      sort: fc.constantFrom('created_at', 'test_name', 'health_status', 'other'),
      direction: fc.constantFrom('asc', 'desc', 'up'),
      after: fc.tuple(fc.oneof(fc.string(), fc.double()), fc.string()),
    })
    .map((value) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url')),
  fc.constantFrom('', 'garbage', '%%%'),
);

/** Configuration texts: valid, deprecated, invalid, not YAML, and one character past the limit. */
export const mergifyYmlText: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    'queue_rules: []\n',
    'queue_rules:\n  - name: default\n    conditions:\n      - check-success=ci\n',
    'queue_rules:\n  - name: default\n    batch_size: 0\n',
    'pull_request_rules:\n  - name: r\n    conditions: ["label=ok"]\n    actions: {queue: {name: nope}}\n',
    'shared: &a {b: *a}\n',
    'a: [\n',
    `#${'x'.repeat(1_048_576)}`,
  ),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(null, 42, ['queue_rules: []']),
);
