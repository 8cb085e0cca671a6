import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { bucketIndex } from '../domain/histogram';
import { buildLogQuery, type LogFilters, type LogQuery, type LogQueryParameters } from '../domain/log-query';
import { referenceRecords, type ReferenceRecord } from '../testing/log-reference';
import {
  SEEDED_FROM,
  SEEDED_TO,
  activityLogProjection,
  applyInBatches,
  seededEvents,
} from '../testing/seeded-log';
import { ROLLUPS } from '../projection/rollups';
import { SPANS } from '../projection/spans';
import { AggregateLogs, FACET_TOP, type FacetCount } from './aggregate-logs';
import { ListLogs, type LogPage } from './list-logs';

const NOW = SEEDED_TO;

const countBy = <T>(items: readonly T[], keys: (item: T) => ReadonlyArray<string | number | null>) => {
  const counts = new Map<string, number>();
  for (const item of items) {
    for (const key of keys(item))
      if (key !== null) counts.set(String(key), (counts.get(String(key)) ?? 0) + 1);
  }
  return counts;
};

/** A facet must hold every value of the listing with its count, in count order, capped. */
function expectFacet(facet: readonly FacetCount[], listed: ReadonlyMap<string, number>, cap?: number): void {
  const counts = facet.map((row) => row.count);
  expect(counts).toEqual([...counts].sort((a, b) => b - a));
  expect(counts.every((count) => count > 0)).toBe(true);
  for (const row of facet) expect([row.value, row.count]).toEqual([row.value, listed.get(row.value)]);
  expect(facet.length).toBe(cap ? Math.min(cap, listed.size) : listed.size);
  const shown = new Set(facet.map((row) => row.value));
  const smallestShown = Math.min(...counts);
  for (const [value, count] of listed)
    if (!shown.has(value)) expect(count).toBeLessThanOrEqual(smallestShown);
}

describeEachDatabase('GET logs/aggregate query', (database) => {
  let db: SqlExecutor;
  let list: ListLogs;
  let aggregates: AggregateLogs;
  let byId: Map<number, ReferenceRecord>;

  beforeAll(async () => {
    db = await database.open();
    await db.transaction((tx) => activityLogProjection().setup(tx));
    const events = seededEvents();
    byId = new Map(referenceRecords(events).map((record) => [record.id, record]));
    await applyInBatches(db, events);
    list = new ListLogs(db);
    aggregates = new AggregateLogs(db);
  });
  afterAll(() => db.close());

  /** Every record GET logs lists for the query, walking its pages. */
  async function listEverything(query: LogQuery): Promise<ReferenceRecord[]> {
    const records: ReferenceRecord[] = [];
    let page: LogPage | null = null;
    do {
      page = await list.page(query, 100, page?.next ?? undefined);
      records.push(...page.events.map((event) => byId.get(event.id)!));
    } while (page.next);
    return records;
  }
  const without = (query: LogQuery, dimension: keyof LogFilters): LogQuery => {
    const filters = { ...query.filters };
    delete filters[dimension];
    return { ...query, filters };
  };

  const cases: Array<{ name: string; params: LogQueryParameters; repository?: string }> = [
    { name: 'three whole days', params: { received_from: SEEDED_FROM, received_to: SEEDED_TO } },
    {
      name: 'a window off the hour',
      params: {
        received_from: new Date('2026-07-01T10:17:23.456Z'),
        received_to: new Date('2026-07-03T03:41:07.001Z'),
      },
    },
    {
      name: 'one day, in 15-minute buckets',
      params: {
        received_from: new Date('2026-07-02T08:05:00Z'),
        received_to: new Date('2026-07-03T08:05:00Z'),
      },
    },
    {
      name: '50 minutes, in 1-minute buckets',
      params: {
        received_from: new Date('2026-07-02T09:10:00Z'),
        received_to: new Date('2026-07-02T10:00:00Z'),
      },
    },
    {
      name: 'type, outcome, trigger and base ref filters',
      params: {
        received_from: new Date('2026-07-01T03:30:00Z'),
        received_to: SEEDED_TO,
        event_type: ['action.queue.checks_end', 'action.queue.leave', 'action.queue.enter'],
        not_outcome: ['pending'],
        not_trigger: ['Rule: dependabot'],
        base_ref: 'main',
      },
    },
    {
      name: 'a trigger filter, which by_trigger ignores',
      params: { received_from: SEEDED_FROM, received_to: SEEDED_TO, trigger: ['Command: queue'] },
    },
    {
      name: 'pull request filter',
      params: { received_from: SEEDED_FROM, received_to: SEEDED_TO, pull_request: [1001, 1002, 1010, 1200] },
    },
    {
      name: 'pull request exclusion',
      params: { received_from: SEEDED_FROM, received_to: SEEDED_TO, not_pull_request: [1001, 1002, 1010] },
    },
    {
      name: 'batch pull request filter',
      params: {
        received_from: SEEDED_FROM,
        received_to: SEEDED_TO,
        batch_pull: [1003, 1005, 1008, 1013, 1020],
      },
    },
    {
      name: 'batch pull request exclusion',
      params: { received_from: SEEDED_FROM, received_to: SEEDED_TO, not_batch_pull: [1003, 1005, 1008] },
    },
    {
      name: 'two and a half days off the hour: top pull requests from spans, crossing ones recounted',
      params: {
        received_from: new Date('2026-07-01T05:45:10Z'),
        received_to: new Date('2026-07-03T17:10:20Z'),
      },
    },
    {
      name: 'every kind of filter at once',
      params: {
        received_from: new Date('2026-07-01T05:45:00Z'),
        received_to: new Date('2026-07-03T20:15:00Z'),
        not_pull_request: [1001],
        not_batch_pull: [1003],
        not_event_type: ['action.queue.change'],
        outcome: ['success', 'failure', 'neutral'],
        not_trigger: ['Rule: dependabot'],
        base_ref: 'main',
      },
    },
    {
      name: 'the other repository',
      params: { received_from: SEEDED_FROM, received_to: SEEDED_TO },
      repository: 'acme/other',
    },
    {
      name: 'a window with no events',
      params: {
        received_from: new Date('2026-06-01T00:00:00Z'),
        received_to: new Date('2026-06-02T00:00:00Z'),
      },
    },
  ];

  it.each(cases)('counts what the list shows: $name', async ({ params, repository }) => {
    const query = buildLogQuery(repository ?? 'acme/mono', params, NOW);
    const result = await aggregates.aggregate(query);
    const listed = await listEverything(query);

    expect(result.total).toBe(listed.length);
    expectFacet(
      result.by_event_type,
      countBy(listed, (r) => [r.type]),
    );
    expectFacet(
      result.by_outcome,
      countBy(listed, (r) => [r.outcome]),
    );

    const interval = result.interval_size_seconds;
    const buckets = countBy(listed, (r) => [bucketIndex(r.receivedAt, interval) * interval * 1000]);
    expect(result.histogram.length).toBeLessThanOrEqual(100);
    expect(result.histogram[0]!.start <= query.window.from.toISOString()).toBe(true);
    expect(result.histogram[result.histogram.length - 1]!.end > query.window.to.toISOString()).toBe(true);
    result.histogram.forEach((bucket, index) => {
      expect(Date.parse(bucket.end) - Date.parse(bucket.start)).toBe(interval * 1000);
      if (index > 0) expect(bucket.start).toBe(result.histogram[index - 1]!.end);
      expect(bucket.count).toBe(buckets.get(String(Date.parse(bucket.start))) ?? 0);
    });

    const triggers = await listEverything(without(query, 'trigger'));
    expectFacet(
      result.by_trigger,
      countBy(triggers, (r) => [r.trigger]),
      FACET_TOP,
    );
    const pulls = await listEverything(without(query, 'pullRequest'));
    expectFacet(
      result.by_pull_request,
      countBy(pulls, (r) => [r.pullRequest]),
      FACET_TOP,
    );
    const batches = await listEverything(without(query, 'batchPullRequest'));
    expectFacet(
      result.by_batch_pull_request,
      countBy(batches, (r) => r.batchPullRequests),
      FACET_TOP,
    );
  });

  it('caps by_pull_request at the top 200', async () => {
    const query = buildLogQuery('acme/mono', { received_from: SEEDED_FROM, received_to: SEEDED_TO }, NOW);
    expect((await aggregates.aggregate(query)).by_pull_request).toHaveLength(FACET_TOP);
  });

  it('reads whole slots from the rollups that hold every filter of a facet', () => {
    const plain = buildLogQuery('acme/mono', { received_from: SEEDED_FROM, received_to: SEEDED_TO }, NOW);
    const plan = (query: LogQuery) => aggregates.statements(query).map((s) => [s.facet, s.family]);
    expect(plan(plain)).toEqual([
      ['bucket', 'total'],
      ['type', 'dims'],
      ['outcome', 'dims'],
      ['trigger', 'dims'],
      ['pullRequest', 'pull'],
      ['batchPullRequest', 'batch'],
    ]);
    expect(
      plan({ ...plain, filters: { eventType: { mode: 'include', values: ['action.queue.leave'] } } }),
    ).toEqual([
      ['bucket', 'dims'],
      ['type', 'dims'],
      ['outcome', 'dims'],
      ['trigger', 'dims'],
      ['pullRequest', null],
      ['batchPullRequest', null],
    ]);
    expect(plan({ ...plain, filters: { pullRequest: { mode: 'exclude', values: [1001] } } })).toEqual([
      ['bucket', null],
      ['type', null],
      ['outcome', null],
      ['trigger', null],
      ['pullRequest', 'pull'],
      ['batchPullRequest', null],
    ]);
    const offHours = buildLogQuery(
      'acme/mono',
      { received_from: new Date('2026-07-01T10:17:00Z'), received_to: new Date('2026-07-03T20:40:00Z') },
      NOW,
    );
    const sql = aggregates
      .statements(offHours)
      .map((s) => s.sql)
      .join('\n');
    for (const table of ['sy_activity_log_counts_15m', 'sy_activity_log_hourly', 'sy_activity_log_daily']) {
      expect(sql).toContain(`FROM ${table} r`);
    }
    for (const { table } of SPANS) expect(sql).toContain(`FROM ${table} s`);
    const oneDay = buildLogQuery('acme/mono', { received_to: new Date('2026-07-02T20:40:00Z') }, NOW);
    const short = aggregates.statements(oneDay);
    expect(short.filter((s) => s.spans)).toEqual([]);
    for (const { table } of ROLLUPS) {
      expect([...short, ...aggregates.statements(offHours)].map((s) => s.sql).join('\n')).toContain(
        `FROM ${table} r`,
      );
    }
  });
});
