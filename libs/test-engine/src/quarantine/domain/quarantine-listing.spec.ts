import type { HealthStatus } from './health-status';
import {
  filterByHealth,
  type ListedQuarantine,
  pageOf,
  type QuarantineSort,
  sortQuarantines,
} from './quarantine-listing';

const item = (
  n: number,
  health: HealthStatus | null,
  overrides: Partial<ListedQuarantine> = {},
): ListedQuarantine => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  testName: `test_${n}`,
  pipelineName: null,
  jobName: null,
  source: 'manual',
  createdAt: `2026-03-0${n}T00:00:00.000Z`,
  health,
  ...overrides,
});

const items = [
  item(1, 'healthy', { pipelineName: 'ci', source: 'auto' }),
  item(2, null),
  item(3, 'broken', { jobName: 'unit' }),
  item(4, 'flaky', { testName: 'a_first' }),
];
const order = (sort: QuarantineSort, direction: 'asc' | 'desc' = 'asc') =>
  sortQuarantines(items, sort, direction).map((q) => Number(q.id.slice(-1)));

describe('quarantine listing', () => {
  it('orders health as broken, flaky, healthy, then no recent runs', () => {
    expect(order('health_status')).toEqual([3, 4, 1, 2]);
    expect(order('health_status', 'desc')).toEqual([2, 1, 4, 3]);
  });

  it('puts all-pipeline and all-job quarantines first when ascending', () => {
    expect(order('pipeline_name')).toEqual([2, 3, 4, 1]);
    expect(order('job_name')).toEqual([1, 2, 4, 3]);
    expect(order('job_name', 'desc')).toEqual([3, 4, 2, 1]);
  });

  it('orders by creation, test name and source with the id breaking ties', () => {
    expect(order('created_at')).toEqual([1, 2, 3, 4]);
    expect(order('test_name')).toEqual([4, 1, 2, 3]);
    expect(order('source')).toEqual([1, 2, 3, 4]);
  });

  it('sorts test names on their first 255 characters only', () => {
    const long = [
      item(2, null, { testName: `${'x'.repeat(255)}b` }),
      item(1, null, { testName: `${'x'.repeat(255)}a` }),
    ];
    expect(sortQuarantines(long, 'test_name', 'asc').map((q) => q.id.slice(-1))).toEqual(['1', '2']);
  });

  it('leaves no-run quarantines out of a health include filter and keeps them in an exclude one', () => {
    const ids = (list: ListedQuarantine[]) => list.map((q) => Number(q.id.slice(-1)));
    expect(ids(filterByHealth(items, { include: ['broken', 'healthy'] }))).toEqual([1, 3]);
    expect(ids(filterByHealth(items, { exclude: ['broken', 'healthy'] }))).toEqual([2, 4]);
  });

  it('pages forward and back by position', () => {
    const sorted = sortQuarantines(items, 'health_status', 'asc');
    const first = pageOf(sorted, 'health_status', 'asc', { perPage: 3 });
    expect(first.items.map((q) => q.testName)).toEqual(['test_3', 'a_first', 'test_1']);
    expect(first.prev).toBeNull();
    const second = pageOf(sorted, 'health_status', 'asc', { perPage: 3, from: { after: first.next! } });
    expect(second.items.map((q) => q.testName)).toEqual(['test_2']);
    expect(second.next).toBeNull();
    const back = pageOf(sorted, 'health_status', 'asc', { perPage: 3, from: { before: second.prev! } });
    expect(back.items).toEqual(first.items);
    expect(back.prev).toBeNull();
  });
});
