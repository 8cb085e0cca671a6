import type { SqlExecutor } from '@switchyard/sql';
import { mergeQueueLogMapping } from '@switchyard/merge-queue';
import { describeEachDatabase } from '@switchyard/testing';
import type { LogMapping } from '@switchyard/activity-log-contract';
import { queueWorkload } from '@switchyard/merge-queue/testing';
import { RecordedEventFeed } from '../testing/recorded-events';
import { createActivityLogProjection } from './activity-log-projection';
import { ROLLUPS, type RollupFamily } from './rollups';
import { SPANS } from './spans';

const from = new Date('2026-07-01T00:00:00Z');
const to = new Date('2026-07-03T00:00:00Z');

const pauseMapping: LogMapping = {
  'test.paused': (event) => {
    const data = event.data as { repository: string; at: string; reason: string };
    return [
      {
        type: 'queue.pause.create',
        repository: data.repository,
        pullRequest: null,
        baseRef: null,
        trigger: 'Application: ci',
        receivedAt: new Date(data.at),
        metadata: { reason: data.reason, created_by: { type: 'application', id: 1, name: 'ci' } },
      },
    ];
  },
};

function workloadEvents(feed: RecordedEventFeed, events: number) {
  return [...queueWorkload({ repository: 'Acme/Mono', seed: 7, from, to, events })].flatMap((append) =>
    feed.record(append.events, append.streamId),
  );
}

it('reads only the event types its mappings know', () => {
  const projection = createActivityLogProjection([mergeQueueLogMapping, pauseMapping]);
  expect([...projection.eventTypes!].sort()).toEqual(
    [...Object.keys(mergeQueueLogMapping), 'test.paused'].sort(),
  );
});

describeEachDatabase('activity-log projection', (database) => {
  let db: SqlExecutor;
  const projection = createActivityLogProjection([mergeQueueLogMapping, pauseMapping]);

  beforeAll(async () => {
    db = await database.open();
    await db.transaction((tx) => projection.setup(tx));
  });
  beforeEach(() => db.transaction((tx) => projection.reset(tx)));
  afterAll(() => db.close());

  const snapshot = async () => ({
    rows: (
      await db.query(
        `SELECT id::int AS id, event_position, ordinal, type, outcome, repository, pull_request::int AS pull_request,
                batch_pull_requests::text AS batch
         FROM sy_activity_log ORDER BY id`,
      )
    ).rows,
    rollups: await Promise.all(
      [...ROLLUPS, ...SPANS].map(async ({ table }) =>
        (await db.query(`SELECT * FROM ${table}`)).rows.map((row) => JSON.stringify(row)).sort(),
      ),
    ),
  });

  it('gives each record an increasing id in feed order, its outcome and its batch snapshot', async () => {
    const feed = new RecordedEventFeed();
    const events = feed.record([
      {
        type: 'test.paused',
        data: { repository: 'Acme/Mono', at: '2026-07-01T10:00:00Z', reason: 'deploy' },
      },
      {
        type: 'merge_queue.checks_ended',
        data: {
          repository: 'acme/mono',
          baseRef: 'main',
          trigger: 'merge queue internal',
          occurredAt: '2026-07-01T09:00:00Z',
          queueName: 'default',
          partitionName: '__default__',
          trainCarId: null,
          aborted: false,
          abortCode: null,
          abortReason: null,
          abortStatus: 'DEFINITIVE',
          retryAttempt: null,
          maxRetries: null,
          speculativeCheck: {
            number: 900,
            inPlace: false,
            checksTimedOut: false,
            checksConclusion: 'failure',
            checksStartedAt: null,
            checksEndedAt: null,
            unsuccessfulChecks: [],
          },
          pullRequests: [
            { number: 1, queuedAt: '2026-07-01T08:00:00Z', priorityRuleName: null, sessionId: 'a' },
            { number: 2, queuedAt: '2026-07-01T08:01:00Z', priorityRuleName: null, sessionId: 'b' },
          ],
        },
      },
      { type: 'not.mapped', data: {} },
    ]);
    await db.transaction((tx) => projection.apply(tx, events));
    const { rows } = await snapshot();
    expect(rows).toEqual([
      expect.objectContaining({
        id: 1,
        ordinal: 0,
        type: 'queue.pause.create',
        outcome: 'neutral',
        repository: 'acme/mono',
        batch: '{}',
      }),
      expect.objectContaining({
        id: 2,
        ordinal: 0,
        type: 'action.queue.checks_end',
        outcome: 'failure',
        pull_request: 1,
        batch: '{900}',
      }),
      expect.objectContaining({
        id: 3,
        ordinal: 1,
        type: 'action.queue.checks_end',
        outcome: 'failure',
        pull_request: 2,
        batch: '{900}',
      }),
    ]);
  });

  it('ignores events it has already applied, ids and rollups included', async () => {
    const events = workloadEvents(new RecordedEventFeed(), 400);
    await db.transaction((tx) => projection.apply(tx, events.slice(0, 250)));
    await db.transaction((tx) => projection.apply(tx, events.slice(200)));
    const once = await snapshot();
    await db.transaction((tx) => projection.apply(tx, events));
    expect(await snapshot()).toEqual(once);
    const ids = once.rows.map((row) => row.id);
    expect(ids).toEqual(ids.map((_, index) => index + 1));
  });

  it('rebuilds the same records with the same ids', async () => {
    const events = workloadEvents(new RecordedEventFeed(), 400);
    for (let start = 0; start < events.length; start += 37) {
      await db.transaction((tx) => projection.apply(tx, events.slice(start, start + 37)));
    }
    const built = await snapshot();
    await db.transaction(async (tx) => {
      await projection.reset(tx);
      await projection.apply(tx, events);
    });
    expect(await snapshot()).toEqual(built);
  });

  /** Each rollup, counted again from the rows, written independently of rollups.ts. */
  const COUNTED: Record<RollupFamily, { keys: string[]; from: string; where: string }> = {
    total: { keys: [], from: 'sy_activity_log', where: '' },
    dims: {
      keys: ['type', 'outcome', 'trigger', "coalesce(base_ref, '')"],
      from: 'sy_activity_log',
      where: '',
    },
    pull: { keys: ['pull_request'], from: 'sy_activity_log', where: 'WHERE pull_request IS NOT NULL' },
    batch: { keys: ['number'], from: 'sy_activity_log, unnest(batch_pull_requests) AS number', where: '' },
  };
  const COLUMNS: Record<RollupFamily, string> = {
    total: '',
    dims: ', type, outcome, trigger, base_ref',
    pull: ', pull_request',
    batch: ', batch_pull_request',
  };

  it.each(ROLLUPS.map((rollup) => [rollup.table, rollup] as const))(
    'keeps %s equal to a count of the rows',
    async (_table, { table, family, grainSeconds }) => {
      const events = workloadEvents(new RecordedEventFeed(), 600);
      for (let start = 0; start < events.length; start += 50) {
        await db.transaction((tx) => projection.apply(tx, events.slice(start, start + 50)));
      }
      const { keys, from, where } = COUNTED[family];
      const slot = `to_timestamp(floor(extract(epoch FROM received_at) / ${grainSeconds}) * ${grainSeconds})`;
      const columns = ['repository', `${slot} AS slot`, ...keys];
      const groupBy = columns.map((_, index) => index + 1).join(', ');
      const counted = `SELECT ${columns.join(', ')}, count(*) AS count FROM ${from} ${where} GROUP BY ${groupBy}`;
      const stored = `SELECT repository, slot${COLUMNS[family]}, count FROM ${table}`;
      const differences = await db.query(
        `(${counted} EXCEPT ${stored}) UNION ALL (${stored} EXCEPT ${counted})`,
      );
      expect(differences.rows).toEqual([]);
      const { rows } = await db.query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`);
      expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    },
  );

  it.each(SPANS.map((span) => [span.table, span] as const))(
    'keeps %s equal to the count and first and last time of each number',
    async (_table, { table, column }) => {
      const events = workloadEvents(new RecordedEventFeed(), 600);
      for (let start = 0; start < events.length; start += 50) {
        await db.transaction((tx) => projection.apply(tx, events.slice(start, start + 50)));
      }
      const number = column === 'pull_request' ? 'pull_request' : 'number';
      const from =
        column === 'pull_request'
          ? 'sy_activity_log WHERE pull_request IS NOT NULL'
          : 'sy_activity_log, unnest(batch_pull_requests) AS number';
      const counted = `SELECT repository, ${number}, count(*)::int AS count, min(received_at) AS first_at,
        max(received_at) AS last_at FROM ${from} GROUP BY 1, 2`;
      const stored = `SELECT repository, ${column}, count, first_at, last_at FROM ${table}`;
      const differences = await db.query(
        `(${counted} EXCEPT ${stored}) UNION ALL (${stored} EXCEPT ${counted})`,
      );
      expect(differences.rows).toEqual([]);
      const { rows } = await db.query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`);
      expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    },
  );
});

it('refuses two bounded contexts mapping the same domain event', () => {
  expect(() => createActivityLogProjection([mergeQueueLogMapping, mergeQueueLogMapping])).toThrow(
    /Two activity-log mappings/,
  );
});
