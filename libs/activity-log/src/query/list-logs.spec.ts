import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { buildLogQuery, type LogQuery, type LogQueryParameters } from '../domain/log-query';
import {
  expectSameIds,
  matchesQuery,
  newestFirst,
  referenceRecords,
  type ReferenceRecord,
} from '../testing/log-reference';
import { RecordedEventFeed } from '../testing/recorded-events';
import {
  SEEDED_FROM,
  SEEDED_TO,
  activityLogProjection,
  applyInBatches,
  listAll,
  seededEvents,
  walkForward,
} from '../testing/seeded-log';
import { queueWorkload } from '@switchyard/merge-queue/testing';
import { ListLogs } from './list-logs';

const NOW = SEEDED_TO;
const wholeWindow = { received_from: SEEDED_FROM, received_to: SEEDED_TO };

describeEachDatabase('GET logs query', (database) => {
  let db: SqlExecutor;
  let list: ListLogs;
  let reference: ReferenceRecord[];
  const feed = new RecordedEventFeed();

  beforeAll(async () => {
    db = await database.open();
    await db.transaction((tx) => activityLogProjection().setup(tx));
    const events = seededEvents(feed);
    reference = referenceRecords(events);
    await applyInBatches(db, events);
    list = new ListLogs(db);
  });
  afterAll(() => db.close());

  const query = (params: LogQueryParameters, repository = 'acme/mono'): LogQuery =>
    buildLogQuery(repository, { ...wholeWindow, ...params }, NOW);
  const expected = (q: LogQuery) =>
    reference
      .filter((record) => matchesQuery(record, q))
      .sort(newestFirst)
      .map((record) => record.id);
  const mono = () => reference.filter((r) => r.repository === 'acme/mono');
  const firstOf = (predicate: (r: ReferenceRecord) => boolean) => mono().find(predicate)!;

  const prOf = (predicate: (r: ReferenceRecord) => boolean) => firstOf(predicate).pullRequest!;
  const batchOf = (predicate: (r: ReferenceRecord) => boolean) => firstOf(predicate).batchPullRequests[0]!;
  const cases: Array<{ name: string; params: () => LogQueryParameters; repository?: string }> = [
    { name: 'no filter', params: () => ({}) },
    { name: 'pull_request', params: () => ({ pull_request: [prOf((r) => r.pullRequest !== null), 1005] }) },
    {
      name: 'not_pull_request',
      params: () => ({ not_pull_request: [prOf((r) => r.pullRequest !== null), 1005] }),
    },
    { name: 'batch_pull', params: () => ({ batch_pull: [batchOf((r) => r.batchPullRequests.length > 0)] }) },
    {
      name: 'batch_pull on a bisected batch',
      params: () => ({ batch_pull: [batchOf((r) => r.type === 'action.queue.batch_bisection_start')] }),
    },
    {
      name: 'not_batch_pull',
      params: () => ({ not_batch_pull: [batchOf((r) => r.batchPullRequests.length > 0)] }),
    },
    { name: 'event_type', params: () => ({ event_type: ['action.queue.leave', 'action.queue.merged'] }) },
    { name: 'event_type alias', params: () => ({ event_type: ['action.queue.checks_not_started'] }) },
    {
      name: 'not_event_type',
      params: () => ({ not_event_type: ['action.queue.change', 'action.queue.checks.change'] }),
    },
    { name: 'outcome', params: () => ({ outcome: ['failure'] }) },
    { name: 'not_outcome', params: () => ({ not_outcome: ['neutral', 'pending'] }) },
    { name: 'trigger', params: () => ({ trigger: ['Command: queue', 'Rule: dependabot'] }) },
    { name: 'not_trigger', params: () => ({ not_trigger: ['merge queue internal'] }) },
    { name: 'base_ref', params: () => ({ base_ref: 'release/2026.1' }) },
    { name: 'base_ref that never occurs', params: () => ({ base_ref: 'gone' }) },
    {
      name: 'every kind of filter at once',
      params: () => ({
        base_ref: 'main',
        not_pull_request: [1001],
        not_batch_pull: [1],
        event_type: ['action.queue.checks_end', 'action.queue.leave'],
        outcome: ['failure', 'success'],
        not_trigger: ['Rule: dependabot'],
      }),
    },
    {
      name: 'a window that does not fall on hours',
      params: () => ({
        received_from: new Date('2026-07-01T10:17:23.456Z'),
        received_to: new Date('2026-07-02T03:41:07.001Z'),
      }),
    },
    {
      name: 'the other repository',
      params: () => ({ pull_request: [1001, 1002, 1003] }),
      repository: 'acme/other',
    },
  ];

  it.each(cases)(
    'lists exactly the matching records, newest first: $name',
    async ({ params, repository }) => {
      const q = query(params(), repository);
      expectSameIds(await listAll(list, q), expected(q));
    },
  );

  it('finds the alias as the current type', async () => {
    const q = query({ event_type: ['action.queue.checks_not_started'] });
    expect(q.filters.eventType?.values).toEqual(['action.queue.checks_postponed']);
    expect((await listAll(list, q)).length).toBeGreaterThan(0);
  });

  it('includes both ends of the window', async () => {
    const record = firstOf((r) => r.type === 'action.queue.leave');
    const at = record.receivedAt;
    for (const params of [
      { received_from: at, received_to: new Date(at.getTime() + 1000) },
      { received_from: new Date(at.getTime() - 1000), received_to: at },
    ]) {
      expect(await listAll(list, query(params))).toContain(record.id);
    }
  });

  it('defaults to the day ending now', async () => {
    const q = buildLogQuery('acme/mono', {}, new Date('2026-07-02T12:00:00Z'));
    const ids = await listAll(list, q);
    expectSameIds(
      ids,
      expected({ ...q, window: { from: new Date('2026-07-01T12:00:00Z'), to: q.window.to } }),
    );
    expect(ids.length).toBeGreaterThan(0);
  });

  it('pages by per_page with a next link on every page but the last and a prev link on every page but the first', async () => {
    const q = query({ event_type: ['action.queue.enter'] });
    const pages = await walkForward(list, q, 7);
    const total = expected(q).length;
    expect(pages).toHaveLength(Math.ceil(total / 7));
    pages.forEach((page, index) => {
      expect(page.events).toHaveLength(index < pages.length - 1 ? 7 : total - 7 * (pages.length - 1));
      expect(page.next === null).toBe(index === pages.length - 1);
      expect(page.prev === null).toBe(index === 0);
    });
  });

  it('walks back through prev links to the same pages', async () => {
    const q = query({ outcome: ['failure'] });
    const forward = await walkForward(list, q, 5);
    let page = forward[forward.length - 1]!;
    for (let index = forward.length - 2; index >= 0; index--) {
      page = await list.page(q, 5, page.prev!);
      expect(page.events.map((e) => e.id)).toEqual(forward[index]!.events.map((e) => e.id));
    }
    expect(page.prev).toBeNull();
  });

  it('answers an empty page without links when nothing matches', async () => {
    const page = await list.page(query({ pull_request: [2147483646] }), 10);
    expect(page).toEqual({ events: [], next: null, prev: null });
  });

  it('returns records in the spec shape', async () => {
    const record = firstOf((r) => r.type === 'action.queue.leave');
    const page = await list.page(
      query({ pull_request: [record.pullRequest!], event_type: ['action.queue.leave'] }),
      1,
    );
    expect(page.events[0]).toEqual({
      id: record.id,
      received_at: record.receivedAt.toISOString(),
      trigger: record.trigger,
      repository: 'acme/mono',
      pull_request: record.pullRequest,
      base_ref: record.baseRef,
      outcome: record.outcome,
      type: 'action.queue.leave',
      metadata: record.metadata,
    });
  });
});

describeEachDatabase('GET logs paging while events arrive', (database) => {
  let db: SqlExecutor;
  let list: ListLogs;

  beforeEach(async () => {
    db = await database.open();
    await db.transaction((tx) => activityLogProjection().setup(tx));
    await applyInBatches(db, seededEvents());
    list = new ListLogs(db);
  });
  afterEach(() => db.close());

  const arrivals = (seed: number, from: Date, to: Date) =>
    new RecordedEventFeed().record(
      [...queueWorkload({ repository: 'acme/mono', seed, from, to, events: 60 })].flatMap((a) => a.events),
    );

  it('neither repeats nor skips a record when newer events arrive between pages', async () => {
    const q = buildLogQuery('acme/mono', { received_from: SEEDED_FROM, received_to: SEEDED_TO }, SEEDED_TO);
    const before = await listAll(list, q);
    let seed = 100;
    const pages = await walkForward(list, q, 50, async (page) => {
      // Newer than anything listed so far: it belongs before the first page.
      const newest = new Date(page.events[0]!.received_at);
      const arriving = arrivals(seed++, new Date(SEEDED_TO.getTime() - 3 * 3600_000), SEEDED_TO).filter(
        (e) => (e.data as { occurredAt: string }).occurredAt > newest.toISOString(),
      );
      await applyInBatches(db, arriving);
    });
    expectSameIds(
      pages.flatMap((p) => p.events.map((e) => e.id)),
      before,
    );
  });

  it('lists late arrivals behind the cursor once, and still every record it had', async () => {
    const q = buildLogQuery('acme/mono', { received_from: SEEDED_FROM, received_to: SEEDED_TO }, SEEDED_TO);
    const before = await listAll(list, q);
    let seed = 200;
    const pages = await walkForward(list, q, 50, async () => {
      // Only while the walk is still far from them, so it ends.
      if (seed < 203) {
        await applyInBatches(
          db,
          arrivals(seed++, SEEDED_FROM, new Date(SEEDED_FROM.getTime() + 6 * 3600_000)),
        );
      }
    });
    const walked = pages.flatMap((p) => p.events.map((e) => e.id));
    expect(new Set(walked).size).toBe(walked.length);
    const walkedSet = new Set(walked);
    expect(before.filter((id) => !walkedSet.has(id))).toEqual([]);
    expect(walked.length).toBeGreaterThan(before.length);
  });
});
