import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { testResultsProjection } from '../projections/test-results.projection';
import { testQuarantineProjection } from '../quarantine/projection/test-quarantine.projection';
import { execution, recorded, runOn } from '../testing/test-results-builder';
import { type SearchFilters, searchTests } from './search-tests';
import { testNameMatcher } from './test-name-glob';

const REPO = 'acme/app';

/** Names with the characters LIKE and the globs treat specially, and names equal to globs. */
const NAMES = [
  'suite/test_12.py::test_12',
  'suite/test_120.py::test_120',
  'suite/test_1x2',
  'suite/test_13.py::test_13',
  'suite/test%12',
  'suite/test\\12',
  'suite/test_12*',
  'suite',
  'suite/',
  'a',
  'a/b',
  'a/x/b',
  'ab',
  'a_b',
  'a%b',
  'a\\b',
  'a*b',
  'a"b"c',
  'abc',
  'A',
  'Ab',
  'é/x',
  '😀/x',
  './a',
  'tests/t.py::test_back',
  'tests/t.py::test_hack',
  'x|y',
  '{a,b}c',
  'bc',
  'ac',
];

const GLOBS = [
  'suite/test_12*',
  'suite/test_1?2',
  'suite/test%12',
  'suite/test\\\\12',
  'suite/test_12\\*',
  'suite/test_12*',
  'suite*',
  'suite/**',
  'a/**',
  'a/**/b',
  './a*',
  'a_*',
  'a%*',
  'a\\\\*',
  'a"b"*',
  'a*',
  'A*',
  '*b',
  '{a,b}c',
  '\\{a,b\\}c',
  'a{b,c}',
  'a@(b|c)',
  '!a*',
  '[a-b]c',
  'é*',
  '😀*',
  '*::test_?ack',
  'x|y',
  'nothing*',
];

describeEachDatabase('search/tests name globs', (db) => {
  let sql: SqlExecutor;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction(async (tx) => {
      await testResultsProjection.setup(tx);
      await testQuarantineProjection.setup(tx);
    });
    // Two jobs for some names: a test is picked with every identity it has.
    const run = (jobName: string, names: readonly string[]) =>
      recorded(
        REPO,
        runOn({ commitSha: 'c1', jobName }),
        names.map((name) => execution(name, 'passed', '2026-05-01T10:00:00Z')),
      );
    await sql.transaction((tx) =>
      testResultsProjection.apply(tx, [
        run('unit', NAMES),
        run(
          'e2e',
          NAMES.filter((_, i) => i % 3 === 0),
        ),
      ]),
    );
  });
  afterAll(() => sql.close());

  const search = (filters: SearchFilters, page: { perPage?: number; offset?: number } = {}) =>
    searchTests(sql, {
      repository: REPO,
      defaultBranch: 'main',
      ...filters,
      sort: 'test_name',
      direction: 'asc',
      offset: page.offset ?? 0,
      perPage: page.perPage ?? 100,
    });
  const namesOf = async (filters: SearchFilters) => {
    const { rows, total } = await search(filters);
    expect(total).toBe(rows.length);
    return [...new Set(rows.map((row) => row.testName))].sort();
  };
  const matching = (include: string[], exclude: string[] = []) => {
    const included = include.length > 0 ? testNameMatcher(include) : () => true;
    const excluded = testNameMatcher(exclude);
    return NAMES.filter((name) => included(name) && !excluded(name)).sort();
  };

  it.each(GLOBS)('test_name=%s finds the names the glob matches', async (glob) => {
    expect(await namesOf({ testName: [glob] })).toEqual(matching([glob]));
  });

  it.each(GLOBS)('test_name_exclude=%s keeps the names the glob does not match', async (glob) => {
    expect(await namesOf({ testNameExclude: [glob] })).toEqual(matching([], [glob]));
  });

  it('takes several globs together, with excludes', async () => {
    const include = ['suite/test_12*', 'a*', '*::test_?ack'];
    const exclude = ['a/**', 'suite/test_120*'];
    expect(await namesOf({ testName: include, testNameExclude: exclude })).toEqual(
      matching(include, exclude),
    );
  });

  it('pages a glob selection in order with the total of the whole selection', async () => {
    const glob = { testName: ['a*', 'suite*'], jobName: ['unit'] };
    const whole = await search(glob);
    const offsets = Array.from({ length: Math.ceil(whole.rows.length / 3) }, (_, page) => page * 3);
    const pages = await Promise.all(offsets.map((offset) => search(glob, { perPage: 3, offset })));
    expect(pages.flatMap((page) => page.rows)).toEqual(whole.rows);
    expect(pages.map((page) => page.total)).toEqual(pages.map(() => whole.rows.length));
    expect(new Set(whole.rows.map((row) => row.testName)).size).toBe(matching(glob.testName).length);
    const past = await search(glob, { perPage: 3, offset: 100 });
    expect(past).toEqual({ rows: [], total: whole.rows.length });
  });
});
