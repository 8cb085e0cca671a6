import type { HealthStatus } from './health-status';
import type { QuarantineSource } from './test-quarantine';

/** A quarantine as listed: its stored fields plus the health of its scope now. */
export interface ListedQuarantine {
  id: string;
  testName: string;
  pipelineName: string | null;
  jobName: string | null;
  source: QuarantineSource;
  createdAt: string;
  health: HealthStatus | null;
}

export const QUARANTINE_SORTS = [
  'created_at',
  'test_name',
  'pipeline_name',
  'job_name',
  'health_status',
  'source',
] as const;
export type QuarantineSort = (typeof QUARANTINE_SORTS)[number];
export type SortDirection = 'asc' | 'desc';

export interface HealthFilters {
  /** Keeps these healths; quarantines without recent runs are left out. */
  include?: readonly HealthStatus[];
  /** Drops these healths; quarantines without recent runs are kept. */
  exclude?: readonly HealthStatus[];
}

export function filterByHealth<T extends ListedQuarantine>(items: readonly T[], filters: HealthFilters): T[] {
  return items.filter(
    ({ health }) =>
      (filters.include === undefined || (health !== null && filters.include.includes(health))) &&
      (filters.exclude === undefined || health === null || !filters.exclude.includes(health)),
  );
}

/** A sort position: the key then the id, so every order is total and a cursor can resume it. */
export type SortKey = [string | number, string];

/** Ascending health: broken, flaky, healthy, then no recent runs (spec). */
const HEALTH_RANK: Readonly<Record<HealthStatus, number>> = { broken: 0, flaky: 1, healthy: 2 };

/** test_name sorts on its first 255 characters (spec); ties fall back to the id. */
const TEST_NAME_SORT_LENGTH = 255;

/** Scope columns: an all-pipeline or all-job quarantine (null) sorts first when ascending. */
const scopeKey = (value: string | null): string => (value === null ? '0' : `1${value}`);

export function sortKeyOf(item: ListedQuarantine, sort: QuarantineSort): SortKey {
  switch (sort) {
    case 'created_at':
      return [Date.parse(item.createdAt), item.id];
    case 'test_name':
      return [[...item.testName].slice(0, TEST_NAME_SORT_LENGTH).join(''), item.id];
    case 'pipeline_name':
      return [scopeKey(item.pipelineName), item.id];
    case 'job_name':
      return [scopeKey(item.jobName), item.id];
    case 'health_status':
      return [item.health === null ? 3 : HEALTH_RANK[item.health], item.id];
    case 'source':
      return [item.source, item.id];
  }
}

const compareValues = (a: string | number, b: string | number): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : a < b ? -1 : a > b ? 1 : 0;

export function compareKeys(a: SortKey, b: SortKey, direction: SortDirection): number {
  const order = compareValues(a[0], b[0]) || compareValues(a[1], b[1]);
  return direction === 'asc' ? order : -order;
}

export interface PageRequest {
  perPage: number;
  /** Resume after (next) or before (prev) this position. */
  from?: { after: SortKey } | { before: SortKey };
}

export interface Page<T> {
  items: T[];
  next: SortKey | null;
  prev: SortKey | null;
}

/**
 * One page of a sorted list, by position rather than offset, so a quarantine added or lifted
 * between two requests never shifts the next page onto a row already shown or past one not seen.
 */
export function pageOf<T extends ListedQuarantine>(
  sorted: readonly T[],
  sort: QuarantineSort,
  direction: SortDirection,
  request: PageRequest,
): Page<T> {
  const keyOf = (item: T) => sortKeyOf(item, sort);
  const from = request.from;
  let start = 0;
  let end = sorted.length;
  if (from && 'after' in from) {
    start = sorted.findIndex((item) => compareKeys(keyOf(item), from.after, direction) > 0);
    if (start === -1) start = sorted.length;
    end = Math.min(sorted.length, start + request.perPage);
  } else if (from && 'before' in from) {
    end = sorted.findIndex((item) => compareKeys(keyOf(item), from.before, direction) >= 0);
    if (end === -1) end = sorted.length;
    start = Math.max(0, end - request.perPage);
  } else {
    end = Math.min(sorted.length, request.perPage);
  }
  const items = sorted.slice(start, end);
  return {
    items,
    next: end < sorted.length && items.length > 0 ? keyOf(items[items.length - 1]!) : null,
    prev: start > 0 && items.length > 0 ? keyOf(items[0]!) : null,
  };
}

export function sortQuarantines<T extends ListedQuarantine>(
  items: readonly T[],
  sort: QuarantineSort,
  direction: SortDirection,
): T[] {
  return [...items].sort((a, b) => compareKeys(sortKeyOf(a, sort), sortKeyOf(b, sort), direction));
}
