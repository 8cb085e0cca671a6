import type { LogFilters, ValueFilter } from '../domain/log-query';
import type { SqlParams } from './sql-params';

/** A filter dimension of the log; the aggregate drops one of them for the facet that reads it. */
export type FilterDimension =
  'pullRequest' | 'batchPullRequest' | 'eventType' | 'outcome' | 'trigger' | 'baseRef';

export const FILTER_DIMENSIONS: readonly FilterDimension[] = [
  'pullRequest',
  'batchPullRequest',
  'eventType',
  'outcome',
  'trigger',
  'baseRef',
];

/** The filters that apply, without the ones a facet ignores. */
export function activeDimensions(filters: LogFilters, ignored?: FilterDimension): FilterDimension[] {
  return FILTER_DIMENSIONS.filter((dimension) => dimension !== ignored && filters[dimension] !== undefined);
}

const scalarFilter = (
  column: string,
  filter: ValueFilter<string | number>,
  cast: string,
  params: SqlParams,
): string =>
  filter.mode === 'include'
    ? `${column} = ANY(${params.add(filter.values, cast)})`
    : `${column} <> ALL(${params.add(filter.values, cast)})`;

/** SQL conditions for the given dimensions over the log rows (alias l). */
export function rowConditions(
  filters: LogFilters,
  dimensions: readonly FilterDimension[],
  params: SqlParams,
): string[] {
  const conditions: string[] = [];
  for (const dimension of dimensions) {
    switch (dimension) {
      case 'pullRequest': {
        const filter = filters.pullRequest!;
        const list = params.add(filter.values, 'bigint[]');
        // Excluding numbers keeps the repository-level records, which have no pull request.
        conditions.push(
          filter.mode === 'include'
            ? `l.pull_request = ANY(${list})`
            : `(l.pull_request IS NULL OR l.pull_request <> ALL(${list}))`,
        );
        break;
      }
      case 'batchPullRequest': {
        const filter = filters.batchPullRequest!;
        const list = params.add(filter.values, 'bigint[]');
        // The explicit non-empty test lets the planner use the partial GIN index.
        conditions.push(
          filter.mode === 'include'
            ? `(l.batch_pull_requests <> '{}' AND l.batch_pull_requests && ${list})`
            : `NOT (l.batch_pull_requests && ${list})`,
        );
        break;
      }
      case 'eventType':
        conditions.push(scalarFilter('l.type', filters.eventType!, 'text[]', params));
        break;
      case 'outcome':
        conditions.push(scalarFilter('l.outcome', filters.outcome!, 'text[]', params));
        break;
      case 'trigger':
        conditions.push(scalarFilter('l.trigger', filters.trigger!, 'text[]', params));
        break;
      case 'baseRef':
        conditions.push(`l.base_ref = ${params.add(filters.baseRef)}`);
        break;
    }
  }
  return conditions;
}

/** Dimensions the dims rollups (alias r) can filter on. */
export const ROLLUP_DIMENSIONS: ReadonlySet<FilterDimension> = new Set([
  'eventType',
  'outcome',
  'trigger',
  'baseRef',
]);

/** SQL conditions over a dims rollup (alias r); only ROLLUP_DIMENSIONS. */
export function rollupConditions(
  filters: LogFilters,
  dimensions: readonly FilterDimension[],
  params: SqlParams,
): string[] {
  return dimensions.map((dimension) => {
    switch (dimension) {
      case 'eventType':
        return scalarFilter('r.type', filters.eventType!, 'text[]', params);
      case 'outcome':
        return scalarFilter('r.outcome', filters.outcome!, 'text[]', params);
      case 'trigger':
        return scalarFilter('r.trigger', filters.trigger!, 'text[]', params);
      case 'baseRef':
        // Records without a base ref are counted under '', which no base_ref filter (1..255) equals.
        return `r.base_ref = ${params.add(filters.baseRef)}`;
      default:
        throw new Error(`The rollups cannot filter on ${dimension}`);
    }
  });
}
