/**
 * The pre-counted tables behind GET logs/aggregate. Each family counts log records per repository
 * and time slot (aligned on the Unix epoch, so slots of a finer grain nest inside coarser ones and
 * inside histogram buckets) by some dimensions:
 *  - total: nothing else; the unfiltered histogram, down to 15-minute buckets;
 *  - dims: type, outcome, trigger and base ref ('' when none); total, histogram, by_event_type,
 *    by_outcome and by_trigger whenever no pull-request or batch filter applies;
 *  - pull / batch: pull request / batch pull request; by_pull_request / by_batch_pull_request
 *    over short windows when no other filter applies (long windows use spans.ts).
 * dims exists per hour and per day: an aggregate reads whole days from the daily table, the whole
 * hours around them from the hourly one and only the ragged ends from the log rows, so a 30-day
 * window reads ~30 daily slots plus at most 46 hourly ones.
 */
export type RollupFamily = 'total' | 'dims' | 'pull' | 'batch';

export interface Rollup {
  table: string;
  family: RollupFamily;
  grainSeconds: number;
}

export const ROLLUPS: readonly Rollup[] = [
  { table: 'sy_activity_log_counts_15m', family: 'total', grainSeconds: 900 },
  { table: 'sy_activity_log_hourly', family: 'dims', grainSeconds: 3600 },
  { table: 'sy_activity_log_daily', family: 'dims', grainSeconds: 86400 },
  { table: 'sy_activity_log_hourly_pull', family: 'pull', grainSeconds: 3600 },
  { table: 'sy_activity_log_hourly_batch_pull', family: 'batch', grainSeconds: 3600 },
];

export const rollupsOf = (family: RollupFamily): readonly Rollup[] =>
  ROLLUPS.filter((rollup) => rollup.family === family);

/** The columns a family counts by, after (repository, slot). */
const KEY_COLUMNS: Record<RollupFamily, string> = {
  total: '',
  dims: 'type text NOT NULL, outcome text NOT NULL, trigger text NOT NULL, base_ref text NOT NULL,',
  pull: 'pull_request bigint NOT NULL,',
  batch: 'batch_pull_request bigint NOT NULL,',
};
export const KEY_NAMES: Record<RollupFamily, readonly string[]> = {
  total: [],
  dims: ['type', 'outcome', 'trigger', 'base_ref'],
  pull: ['pull_request'],
  batch: ['batch_pull_request'],
};

export const rollupDdl = ({ table, family }: Rollup): string => `
CREATE TABLE IF NOT EXISTS ${table} (
  repository text NOT NULL,
  slot timestamptz NOT NULL,
  ${KEY_COLUMNS[family]}
  count integer NOT NULL,
  PRIMARY KEY (${['repository', 'slot', ...KEY_NAMES[family]].join(', ')})
);`;

/** What each family counts, from the `inserted` rows of the projection's statement. */
const SOURCES: Record<RollupFamily, { select: string; from: string; where: string }> = {
  total: { select: '', from: 'inserted', where: '' },
  dims: { select: "type, outcome, trigger, coalesce(base_ref, ''),", from: 'inserted', where: '' },
  pull: { select: 'pull_request,', from: 'inserted', where: 'WHERE pull_request IS NOT NULL' },
  batch: {
    select: 'batch.number,',
    from: 'inserted CROSS JOIN LATERAL unnest(inserted.batch_pull_requests) AS batch(number)',
    where: '',
  },
};

/** Adds the records a statement inserted (CTE `inserted`) to one rollup. */
export function rollupUpsert({ table, family, grainSeconds }: Rollup): string {
  const source = SOURCES[family];
  const keys = ['repository', 'slot', ...KEY_NAMES[family]];
  const groupBy = keys.map((_, index) => index + 1).join(', ');
  return `INSERT INTO ${table} AS r (${keys.join(', ')}, count)
  SELECT repository, date_bin('${grainSeconds} seconds', received_at, TIMESTAMPTZ '1970-01-01 00:00:00+00'), ${source.select} count(*)
  FROM ${source.from} ${source.where}
  GROUP BY ${groupBy}
  ON CONFLICT (${keys.join(', ')}) DO UPDATE SET count = r.count + excluded.count`;
}
