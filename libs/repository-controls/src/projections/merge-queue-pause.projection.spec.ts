import type { SqlExecutor } from '@switchyard/sql';
import { describeEachDatabase } from '@switchyard/testing';
import { alice, RecordedHistory, releaseBot } from '../testing/recorded-history';
import { mergeQueuePauseProjection, PAUSE_TABLE } from './merge-queue-pause.projection';
import { findPause } from './merge-queue-pause.read-model';

const at = (iso: string) => new Date(iso);

describeEachDatabase('merge-queue pause projection', (db) => {
  let sql: SqlExecutor;
  let history: RecordedHistory;

  beforeAll(async () => {
    sql = await db.open();
    await sql.transaction((tx) => mergeQueuePauseProjection.setup(tx));
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    await sql.transaction((tx) => mergeQueuePauseProjection.reset(tx));
    history = new RecordedHistory();
  });

  const project = async () => {
    const events = await history.all();
    await sql.transaction((tx) => mergeQueuePauseProjection.apply(tx, events));
    return events;
  };
  const dump = async () => (await sql.query(`SELECT * FROM ${PAUSE_TABLE} ORDER BY repository_key`)).rows;

  it('shows a pause, keeps paused_at across reason changes, and forgets it on unpause', async () => {
    await history.pause({
      type: 'PauseMergeQueue',
      repository: 'acme/a',
      reason: 'incident',
      actor: alice,
      at: at('2026-04-23T12:34:56Z'),
    });
    await history.pause({
      type: 'PauseMergeQueue',
      repository: 'acme/b',
      reason: 'release',
      actor: alice,
      at: at('2026-04-23T12:40:00Z'),
    });
    await history.pause({
      type: 'PauseMergeQueue',
      repository: 'acme/a',
      reason: 'still',
      actor: releaseBot,
      at: at('2026-04-23T13:00:00Z'),
    });
    await project();
    expect(await findPause(sql, 'acme/a')).toEqual({ reason: 'still', pausedAt: at('2026-04-23T12:34:56Z') });
    expect(await findPause(sql, 'acme/b')).toEqual({
      reason: 'release',
      pausedAt: at('2026-04-23T12:40:00Z'),
    });
    expect(await findPause(sql, 'acme/c')).toBeNull();

    await history.pause({
      type: 'UnpauseMergeQueue',
      repository: 'acme/a',
      actor: alice,
      at: at('2026-04-23T14:00:00Z'),
    });
    await project();
    expect(await findPause(sql, 'acme/a')).toBeNull();
    expect(await findPause(sql, 'acme/b')).not.toBeNull();
  });

  it('applying the same events twice changes nothing, even across an unpause and a new pause', async () => {
    await history.pause({
      type: 'PauseMergeQueue',
      repository: 'acme/a',
      reason: 'one',
      actor: alice,
      at: at('2026-04-23T10:00:00Z'),
    });
    await history.pause({
      type: 'UnpauseMergeQueue',
      repository: 'acme/a',
      actor: alice,
      at: at('2026-04-23T11:00:00Z'),
    });
    await history.pause({
      type: 'PauseMergeQueue',
      repository: 'acme/a',
      reason: 'two',
      actor: alice,
      at: at('2026-04-23T12:00:00Z'),
    });
    const events = await project();
    const once = await dump();
    await sql.transaction((tx) => mergeQueuePauseProjection.apply(tx, events));
    // An older event replayed alone must not regress the row either.
    await sql.transaction((tx) => mergeQueuePauseProjection.apply(tx, events.slice(0, 2)));
    expect(await dump()).toEqual(once);
    expect(await findPause(sql, 'acme/a')).toEqual({ reason: 'two', pausedAt: at('2026-04-23T12:00:00Z') });
  });

  it('a rebuild (reset, then every event at once) equals the live, event-by-event read model', async () => {
    const steps = [
      () =>
        history.pause({
          type: 'PauseMergeQueue',
          repository: 'acme/a',
          reason: 'x',
          actor: alice,
          at: at('2026-04-23T10:00:00Z'),
        }),
      () =>
        history.pause({
          type: 'PauseMergeQueue',
          repository: 'acme/a',
          reason: 'y',
          actor: alice,
          at: at('2026-04-23T10:30:00Z'),
        }),
      () =>
        history.pause({
          type: 'PauseMergeQueue',
          repository: 'acme/b',
          reason: 'z',
          actor: alice,
          at: at('2026-04-23T11:00:00Z'),
        }),
      () =>
        history.pause({
          type: 'UnpauseMergeQueue',
          repository: 'acme/b',
          actor: alice,
          at: at('2026-04-23T12:00:00Z'),
        }),
    ];
    let applied = 0;
    for (const step of steps) {
      await step();
      const events = await history.all();
      await sql.transaction((tx) => mergeQueuePauseProjection.apply(tx, events.slice(applied)));
      applied = events.length;
    }
    const live = await dump();
    await sql.transaction(async (tx) => {
      await mergeQueuePauseProjection.reset(tx);
      await mergeQueuePauseProjection.apply(tx, await history.all());
    });
    expect(await dump()).toEqual(live);
  });
});
