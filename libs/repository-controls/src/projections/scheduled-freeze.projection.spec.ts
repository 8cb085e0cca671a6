import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import type { ScheduleFreeze } from '../domain/freeze/scheduled-freeze';
import { alice, RecordedHistory, releaseBot } from '../testing/recorded-history';
import { FREEZE_TABLE, scheduledFreezeProjection } from './scheduled-freeze.projection';
import { calendarFreezes, findFreeze, listCurrentFreezes } from './scheduled-freeze.read-model';

const at = (iso: string) => new Date(iso);
const repository = 'acme/widgets';
const ids = {
  release: '00000000-0000-4000-8000-000000000001',
  holiday: '00000000-0000-4000-8000-000000000002',
  sameStart: '00000000-0000-4000-8000-000000000003',
  ended: '00000000-0000-4000-8000-000000000004',
  elsewhere: '00000000-0000-4000-8000-000000000005',
};

const schedule = (freezeId: string, overrides: Partial<ScheduleFreeze> = {}): ScheduleFreeze => ({
  type: 'ScheduleFreeze',
  freezeId,
  repository,
  reason: `freeze ${freezeId.slice(-1)}`,
  start: '2026-07-01T09:00:00',
  end: '2026-07-02T18:00:00',
  timezone: 'Europe/Paris',
  matchingConditions: [],
  excludeConditions: [],
  actor: alice,
  at: at('2026-06-01T00:00:00Z'),
  ...overrides,
});

describeEachDatabase('scheduled freeze projection', (db) => {
  let sql: SqlExecutor;
  let history: RecordedHistory;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction((tx) => scheduledFreezeProjection.setup(tx));
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    await sql.transaction((tx) => scheduledFreezeProjection.reset(tx));
    history = new RecordedHistory();
  });

  const project = async () => {
    const events = await history.all();
    await sql.transaction((tx) => scheduledFreezeProjection.apply(tx, events));
    return events;
  };
  const dump = async () => (await sql.query(`SELECT * FROM ${FREEZE_TABLE} ORDER BY id`)).rows;

  it('echoes the attributes exactly as received, condition objects included', async () => {
    const matchingConditions = [{ or: ['base=main', { not: { and: ['label=a', 'label=b'] } }] }, 'base!=dev'];
    await history.freeze(schedule(ids.release, { matchingConditions, excludeConditions: ['label=hotfix'] }));
    await project();
    expect(await findFreeze(sql, repository, ids.release)).toEqual({
      id: ids.release,
      reason: 'freeze 1',
      start: '2026-07-01T09:00:00',
      end: '2026-07-02T18:00:00',
      timezone: 'Europe/Paris',
      matching_conditions: matchingConditions,
      exclude_conditions: ['label=hotfix'],
    });
    const [listed] = await listCurrentFreezes(sql, repository, at('2026-06-15T00:00:00Z'));
    expect(JSON.stringify(listed)).toBe(
      `{"id":"${ids.release}","reason":"freeze 1","start":"2026-07-01T09:00:00","end":"2026-07-02T18:00:00",` +
        `"timezone":"Europe/Paris","matching_conditions":${JSON.stringify(matchingConditions)},"exclude_conditions":["label=hotfix"]}`,
    );
  });

  it('lists ongoing and scheduled freezes of the repository in start order, not ended or cancelled ones', async () => {
    await history.freeze(schedule(ids.holiday, { start: '2026-12-24T00:00:00', end: null }));
    await history.freeze(schedule(ids.sameStart, { start: '2026-07-01T09:00:00', end: null }));
    await history.freeze(schedule(ids.release));
    await history.freeze(schedule(ids.ended, { start: '2026-06-01T09:00:00', end: '2026-06-02T09:00:00' }));
    await history.freeze(schedule(ids.elsewhere, { repository: 'acme/other' }));
    await project();
    const listed = async (now: string) =>
      (await listCurrentFreezes(sql, repository, at(now))).map((f) => f.id);

    expect(await listed('2026-06-15T00:00:00Z')).toEqual([ids.release, ids.sameStart, ids.holiday]);
    // The end instant itself is no longer frozen (Paris 18:00 = 16:00Z).
    expect(await listed('2026-07-02T16:00:00Z')).toEqual([ids.sameStart, ids.holiday]);
    expect(await listed('2026-06-01T12:00:00Z')).toEqual([
      ids.ended,
      ids.release,
      ids.sameStart,
      ids.holiday,
    ]);

    await history.freeze({
      type: 'CancelFreeze',
      freezeId: ids.sameStart,
      repository,
      deleteReason: 'x',
      actor: alice,
      at: at('2026-06-20T00:00:00Z'),
    });
    await project();
    expect(await listed('2026-06-15T00:00:00Z')).toEqual([ids.release, ids.holiday]);
    expect(await findFreeze(sql, repository, ids.sameStart)).toBeNull();
    expect(await findFreeze(sql, repository, ids.elsewhere)).toBeNull();
  });

  it('follows changes, reordering by the new start', async () => {
    await history.freeze(schedule(ids.release));
    await history.freeze(schedule(ids.holiday, { start: '2026-08-01T00:00:00', end: null }));
    await history.freeze({
      type: 'ChangeFreeze',
      freezeId: ids.holiday,
      repository,
      changes: { start: '2026-06-20T00:00:00', reason: 'earlier' },
      actor: releaseBot,
      at: at('2026-06-10T00:00:00Z'),
    });
    await project();
    const listed = await listCurrentFreezes(sql, repository, at('2026-06-15T00:00:00Z'));
    expect(listed.map((f) => [f.id, f.reason, f.start])).toEqual([
      [ids.holiday, 'earlier', '2026-06-20T00:00:00'],
      [ids.release, 'freeze 1', '2026-07-01T09:00:00'],
    ]);
  });

  it('feeds the calendar with resolved instants', async () => {
    await history.freeze(
      schedule(ids.release, { matchingConditions: ['base=main'], excludeConditions: ['label=hotfix'] }),
    );
    await project();
    expect(await calendarFreezes(sql, repository, at('2026-06-15T00:00:00Z'))).toEqual([
      {
        id: ids.release,
        startAt: at('2026-07-01T07:00:00Z'),
        endAt: at('2026-07-02T16:00:00Z'),
        matchingConditions: ['base=main'],
        excludeConditions: ['label=hotfix'],
      },
    ]);
  });

  it('applying the same events twice changes nothing, and a cancelled freeze stays cancelled', async () => {
    await history.freeze(schedule(ids.release));
    await history.freeze({
      type: 'ChangeFreeze',
      freezeId: ids.release,
      repository,
      changes: { reason: 'b' },
      actor: alice,
      at: at('2026-06-02T00:00:00Z'),
    });
    await history.freeze({
      type: 'CancelFreeze',
      freezeId: ids.release,
      repository,
      deleteReason: null,
      actor: alice,
      at: at('2026-06-03T00:00:00Z'),
    });
    await history.freeze(schedule(ids.holiday));
    const events = await project();
    const once = await dump();
    await sql.transaction((tx) => scheduledFreezeProjection.apply(tx, events));
    await sql.transaction((tx) => scheduledFreezeProjection.apply(tx, events.slice(0, 1)));
    expect(await dump()).toEqual(once);
    expect(await findFreeze(sql, repository, ids.release)).toBeNull();
  });

  it('a rebuild equals the live read model', async () => {
    const steps = [
      () => history.freeze(schedule(ids.release)),
      () => history.freeze(schedule(ids.holiday, { start: null, end: null, at: at('2026-06-05T10:00:00Z') })),
      () =>
        history.freeze({
          type: 'ChangeFreeze',
          freezeId: ids.release,
          repository,
          changes: { end: null, excludeConditions: ['label=x'] },
          actor: alice,
          at: at('2026-06-06T00:00:00Z'),
        }),
      () =>
        history.freeze({
          type: 'CancelFreeze',
          freezeId: ids.holiday,
          repository,
          deleteReason: 'done',
          actor: alice,
          at: at('2026-06-07T00:00:00Z'),
        }),
    ];
    let applied = 0;
    for (const step of steps) {
      await step();
      const events = await history.all();
      await sql.transaction((tx) => scheduledFreezeProjection.apply(tx, events.slice(applied)));
      applied = events.length;
    }
    const live = await dump();
    await sql.transaction(async (tx) => {
      await scheduledFreezeProjection.reset(tx);
      await scheduledFreezeProjection.apply(tx, await history.all());
    });
    expect(await dump()).toEqual(live);
  });
});
