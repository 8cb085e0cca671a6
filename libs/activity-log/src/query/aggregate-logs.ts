import type { SqlQueryable } from '@switchyard/sql';
import { histogramBuckets, histogramInterval } from '../domain/histogram';
import type { LogQuery } from '../domain/log-query';
import { splitWindow, type WindowSegment } from '../domain/window-segments';
import { rollupsOf, type RollupFamily } from '../projection/rollups';
import { BATCH_SPANS, PULL_SPANS, SPAN_RANGE, type Span } from '../projection/spans';
import {
  ROLLUP_DIMENSIONS,
  activeDimensions,
  rollupConditions,
  rowConditions,
  type FilterDimension,
} from './filter-conditions';
import { SqlParams } from './sql-params';

export interface FacetCount {
  value: string;
  count: number;
}

/** GET logs/aggregate (spec "Aggregate response fields"). */
export interface LogAggregate {
  total: number;
  interval_size_seconds: number;
  histogram: Array<{ start: string; end: string; count: number }>;
  by_event_type: FacetCount[];
  by_outcome: FacetCount[];
  by_trigger: FacetCount[];
  by_pull_request: FacetCount[];
  by_batch_pull_request: FacetCount[];
}

/** The spec's cap for by_trigger, by_pull_request and by_batch_pull_request. */
export const FACET_TOP = 200;

type Facet = 'bucket' | 'type' | 'outcome' | 'trigger' | 'pullRequest' | 'batchPullRequest';

interface FacetPlan {
  facet: Facet;
  /** The facet's own filter, which it ignores (spec: by_trigger, by_pull_request, by_batch_pull_request). */
  ignores?: FilterDimension;
  top?: number;
}

const FACETS: readonly FacetPlan[] = [
  { facet: 'bucket' },
  { facet: 'type' },
  { facet: 'outcome' },
  { facet: 'trigger', ignores: 'trigger', top: FACET_TOP },
  { facet: 'pullRequest', ignores: 'pullRequest', top: FACET_TOP },
  { facet: 'batchPullRequest', ignores: 'batchPullRequest', top: FACET_TOP },
];

/**
 * From this window length on, by_pull_request and by_batch_pull_request come from the spans
 * (spans.ts); below it the hourly slots of the window hold few rows, and a span walk could have to
 * pass over most of a repository's pull requests to find 200 inside a short window.
 */
export const SPAN_MIN_WINDOW_MS = 2 * 86_400_000;

export interface FacetStatement {
  facet: Facet;
  /** The rollup family read for the whole slots of the window, or null when only log rows are. */
  family: RollupFamily | null;
  /** True when the facet comes from pull-request spans. */
  spans: boolean;
  sql: string;
  params: unknown[];
}

/**
 * The aggregate: one statement per facet, run concurrently. Each statement reads the window as
 * whole days, whole hours (or quarter hours) and ragged ends (window-segments.ts): the slots from
 * the rollup family that holds the facet and every filter it applies (rollups.ts), the ends from
 * the log rows. Without such a family the facet counts log rows for the whole window. Every path
 * counts exactly the records GET logs would list.
 */
export class AggregateLogs {
  constructor(private readonly db: SqlQueryable) {}

  async aggregate(query: LogQuery): Promise<LogAggregate> {
    const interval = histogramInterval(query.window);
    const results = await Promise.all(
      this.statements(query).map(async (statement) => {
        const { rows } = await this.db.query<{ key: string | number; count: string | number }>(
          statement.sql,
          statement.params,
        );
        return [
          statement.facet,
          rows.map((row) => ({ value: String(row.key), count: Number(row.count) })),
        ] as const;
      }),
    );
    const byFacet = new Map<Facet, FacetCount[]>(results);
    const buckets = byFacet.get('bucket')!;
    const histogram = histogramBuckets(
      query.window,
      interval,
      new Map(buckets.map((bucket) => [Number(bucket.value), bucket.count])),
    );
    return {
      total: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
      interval_size_seconds: interval,
      histogram: histogram.map((b) => ({
        start: b.start.toISOString(),
        end: b.end.toISOString(),
        count: b.count,
      })),
      by_event_type: byFacet.get('type')!,
      by_outcome: byFacet.get('outcome')!,
      by_trigger: byFacet.get('trigger')!,
      by_pull_request: byFacet.get('pullRequest')!,
      by_batch_pull_request: byFacet.get('batchPullRequest')!,
    };
  }

  /** The statements of one aggregate, exposed so the benchmark can time them without HTTP. */
  statements(query: LogQuery): FacetStatement[] {
    const interval = histogramInterval(query.window);
    return FACETS.map((plan) => statement(query, plan, interval));
  }
}

/** The rollup family that can answer a facet under these filters, if any. */
function familyFor(facet: Facet, dimensions: readonly FilterDimension[]): RollupFamily | null {
  const allInDims = dimensions.every((dimension) => ROLLUP_DIMENSIONS.has(dimension));
  switch (facet) {
    case 'pullRequest':
      return dimensions.length === 0 ? 'pull' : null;
    case 'batchPullRequest':
      return dimensions.length === 0 ? 'batch' : null;
    case 'bucket':
      return dimensions.length === 0 ? 'total' : allInDims ? 'dims' : null;
    default:
      return allInDims ? 'dims' : null;
  }
}

function statement(query: LogQuery, plan: FacetPlan, interval: number): FacetStatement {
  const dimensions = activeDimensions(query.filters, plan.ignores);
  const family = familyFor(plan.facet, dimensions);
  const windowMs = query.window.to.getTime() - query.window.from.getTime();
  if ((family === 'pull' || family === 'batch') && windowMs >= SPAN_MIN_WINDOW_MS) {
    return {
      facet: plan.facet,
      family,
      spans: true,
      ...spanStatement(query, family === 'pull' ? PULL_SPANS : BATCH_SPANS),
    };
  }
  // Histogram buckets can only be summed from slots that divide them.
  const rollups = family
    ? rollupsOf(family).filter((rollup) => plan.facet !== 'bucket' || interval % rollup.grainSeconds === 0)
    : [];
  const tables = new Map(rollups.map((rollup) => [rollup.grainSeconds, rollup.table]));
  const segments = splitWindow(query.window, [...tables.keys()]);
  const params = new SqlParams();
  const repository = params.add(query.repository);
  const parts = segments.map((segment) =>
    segment.source === 'rows'
      ? rowsPart(query, plan.facet, dimensions, segment, repository, interval, params)
      : slotsPart(
          query,
          plan.facet,
          family!,
          tables.get(segment.grainSeconds)!,
          dimensions,
          segment,
          repository,
          interval,
          params,
        ),
  );
  const limit = plan.top ? `\nLIMIT ${plan.top}` : '';
  const sql = `SELECT key, sum(n) AS count FROM (
${parts.join('\nUNION ALL\n')}
) counted
GROUP BY key
ORDER BY count DESC, key${limit}`;
  return {
    facet: plan.facet,
    family: tables.size > 0 ? family : null,
    spans: false,
    sql,
    params: params.values,
  };
}

/** Top 200 numbers of the window from the spans, exact (see spans.ts). */
function spanStatement(query: LogQuery, span: Span): { sql: string; params: unknown[] } {
  const params = new SqlParams();
  const repository = params.add(query.repository);
  const from = params.add(query.window.from.toISOString(), 'timestamptz');
  const to = params.add(query.window.to.toISOString(), 'timestamptz');
  const { table, column } = span;
  const window = `l.received_at >= ${from} AND l.received_at <= ${to}`;
  const crossing =
    column === 'pull_request'
      ? `SELECT l.pull_request AS key, count(*)::int AS n FROM sy_activity_log l
  WHERE l.repository = ${repository} AND ${window}
    AND l.pull_request IN (SELECT number FROM crossing)
  GROUP BY 1`
      : `SELECT batch.number AS key, count(*)::int AS n
  FROM sy_activity_log l CROSS JOIN LATERAL unnest(l.batch_pull_requests) AS batch(number)
  WHERE l.repository = ${repository} AND ${window} AND l.batch_pull_requests <> '{}'
    AND l.batch_pull_requests && (SELECT coalesce(array_agg(number), '{}') FROM crossing)
    AND batch.number IN (SELECT number FROM crossing)
  GROUP BY 1`;
  const range = SPAN_RANGE.replace('first_at', 's.first_at').replace('last_at', 's.last_at');
  const sql = `WITH inside AS (
  SELECT s.${column} AS key, s.count AS n FROM ${table} s
  WHERE s.repository = ${repository} AND s.first_at >= ${from} AND s.last_at <= ${to}
  ORDER BY s.count DESC, s.${column}
  LIMIT ${FACET_TOP}
),
crossing AS (
  SELECT s.${column} AS number FROM ${table} s
  WHERE (${range} @> ${from} OR ${range} @> ${to})
    AND s.repository = ${repository} AND NOT (s.first_at >= ${from} AND s.last_at <= ${to})
)
SELECT key, n AS count FROM (
  SELECT key, n FROM inside
  UNION ALL
  ${crossing}
) counted
ORDER BY count DESC, key
LIMIT ${FACET_TOP}`;
  return { sql, params: params.values };
}

const bucketOf = (column: string, interval: number): string =>
  `floor(extract(epoch FROM ${column}) / ${interval})::bigint`;

function rowsPart(
  query: LogQuery,
  facet: Facet,
  dimensions: readonly FilterDimension[],
  segment: Extract<WindowSegment, { source: 'rows' }>,
  repository: string,
  interval: number,
  params: SqlParams,
): string {
  const conditions = [
    `l.repository = ${repository}`,
    `l.received_at >= ${params.add(segment.from.toISOString())}::timestamptz`,
    `l.received_at ${segment.toInclusive ? '<=' : '<'} ${params.add(segment.to.toISOString())}::timestamptz`,
    ...rowConditions(query.filters, dimensions, params),
  ];
  let key: string;
  let from = 'sy_activity_log l';
  switch (facet) {
    case 'bucket':
      key = bucketOf('l.received_at', interval);
      break;
    case 'type':
      key = 'l.type';
      break;
    case 'outcome':
      key = 'l.outcome';
      break;
    case 'trigger':
      key = 'l.trigger';
      break;
    case 'pullRequest':
      key = 'l.pull_request';
      conditions.push('l.pull_request IS NOT NULL');
      break;
    case 'batchPullRequest':
      key = 'batch.number';
      from += ' CROSS JOIN LATERAL unnest(l.batch_pull_requests) AS batch(number)';
      conditions.push(`l.batch_pull_requests <> '{}'`);
      break;
  }
  return `  SELECT ${key} AS key, count(*)::int AS n FROM ${from}
  WHERE ${conditions.join(' AND ')}
  GROUP BY 1`;
}

const SLOT_KEYS: Record<Facet, string> = {
  bucket: '',
  type: 'r.type',
  outcome: 'r.outcome',
  trigger: 'r.trigger',
  pullRequest: 'r.pull_request',
  batchPullRequest: 'r.batch_pull_request',
};

function slotsPart(
  query: LogQuery,
  facet: Facet,
  family: RollupFamily,
  table: string,
  dimensions: readonly FilterDimension[],
  segment: Extract<WindowSegment, { source: 'slots' }>,
  repository: string,
  interval: number,
  params: SqlParams,
): string {
  const conditions = [
    `r.repository = ${repository}`,
    `r.slot >= ${params.add(segment.from.toISOString())}::timestamptz`,
    `r.slot < ${params.add(segment.to.toISOString())}::timestamptz`,
    ...(family === 'dims' ? rollupConditions(query.filters, dimensions, params) : []),
  ];
  const key = facet === 'bucket' ? bucketOf('r.slot', interval) : SLOT_KEYS[facet];
  return `  SELECT ${key} AS key, r.count AS n FROM ${table} r
  WHERE ${conditions.join(' AND ')}`;
}
