import type { SqlQueryable } from '@switchyard/sql';
import { IDENTITIES_TABLE } from '../projections/test-engine-tables';
import { testNameGlobPrefix, testNameMatcher } from './test-name-glob';

/**
 * The tests the name globs pick: `only` these (test_name given; `globs` narrow to them in SQL), or
 * all `except` these.
 */
export type NameSelection = { only: string[]; globs: readonly string[] } | { except: string[] };

/**
 * An SQL condition on `alias.test_name` that every name the globs match meets: it starts with a
 * glob's literal prefix. Each term is a range of the (repository, test_name pattern) index, so
 * PostgreSQL reads only those names.
 */
export function nameNarrowingSql(
  globs: readonly string[],
  alias: string,
  add: (value: unknown) => string,
): string {
  const terms = [...new Set(globs.map(testNameGlobPrefix))].map(
    (prefix) => `${alias}.test_name LIKE ${add(`${prefix.replace(/[\\%_]/g, '\\$&')}%`)}`,
  );
  return `(${terms.join(' OR ')})`;
}

/**
 * What test_name and test_name_exclude pick (test-name-glob.ts), judged among the names the SQL
 * narrowing lets through (a handful, not every name): `only` the include globs' matches less the
 * exclude globs', or, with excludes alone, all `except` their matches; undefined without name filters.
 */
export async function selectByName(
  sql: SqlQueryable,
  repository: string,
  include: readonly string[],
  exclude: readonly string[],
): Promise<NameSelection | undefined> {
  if (include.length === 0 && exclude.length === 0) return undefined;
  const excluded = testNameMatcher(exclude);
  if (include.length === 0) return { except: await testIdsMatching(sql, repository, exclude, excluded) };
  const included = testNameMatcher(include);
  const only = await testIdsMatching(sql, repository, include, (name) => included(name) && !excluded(name));
  return { only, globs: include };
}

/** Ids of the tests whose names `keep` accepts among those the globs' narrowing lets through. */
async function testIdsMatching(
  sql: SqlQueryable,
  repository: string,
  globs: readonly string[],
  keep: (name: string) => boolean,
): Promise<string[]> {
  const params: unknown[] = [repository];
  const add = (value: unknown) => `$${params.push(value)}`;
  const { rows } = await sql.query<{ test_id: string; test_name: string }>(
    `SELECT i.test_id::text, i.test_name FROM ${IDENTITIES_TABLE} i
     WHERE i.repository = $1 AND ${nameNarrowingSql(globs, 'i', add)}`,
    params,
  );
  const ids = new Set<string>();
  for (const row of rows) if (keep(row.test_name)) ids.add(row.test_id);
  return [...ids];
}
