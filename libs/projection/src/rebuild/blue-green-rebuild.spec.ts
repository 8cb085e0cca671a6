import type { RecordedEvent } from '@switchyard/event-store';
import type { SqlQueryable } from '@switchyard/sql';
import { describeEachDatabase, scaledWait } from '@switchyard/testing';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import { generationSchemaPrefix, liveSchema, quoteIdentifier } from '../generations/generation-schema';
import { readActiveGeneration } from '../generations/generation-table';
import { ProcessorRunner } from '../processor/processor-runner';
import type { Projection } from '../projection';
import {
  appendTypes,
  openProjectionTestEnv,
  storedEvents,
  uniqueName,
  runnersOn,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { RecordingLogger } from '../test/recording-logger';
import { readTally, tallyProjection, type TallyOptions } from '../test/tally-projection';
import { rebuildBlueGreen } from './blue-green-rebuild';

const TYPES = ['Opened', 'Renamed', 'Labelled', 'Closed'];

interface TallyRead {
  rows: number;
  versions: number[];
  maxApplied: number;
}

describeEachDatabase('rebuildBlueGreen beside the live runner', (db) => {
  let env: ProjectionTestEnv;
  let runners: ReturnType<typeof runnersOn>;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
    runners = runnersOn(env);
  });
  afterEach(() => runners.stopAll());
  afterAll(() => env.close());

  // Each new runner starts from the first event of a store the earlier tests filled too.
  const startRunner = (projection: Projection, logger = new RecordingLogger()) =>
    runners.start(projection, { logger, batchSize: 50, defaultWaitTimeoutMs: 30_000 });

  const appendSome = async (prefix: string, appends: number) => {
    let head = '';
    for (let i = 0; i < appends; i++) {
      head = await appendTypes(env.store, `${prefix}${i % 5}`, [TYPES[i % 4]!, TYPES[(i + 1) % 4]!]);
    }
    return head;
  };

  /** What the tally must hold: every event of the test's streams, applied once, by that version. */
  const expectedTally = (events: RecordedEvent[], version: number) =>
    events
      .map((e) => ({ eventId: e.eventId, streamId: e.streamId, type: e.type, version, applied: 1 }))
      .sort((a, b) => (a.streamId + a.eventId < b.streamId + b.eventId ? -1 : 1));

  const readSummary = async (q: SqlQueryable, table: string): Promise<TallyRead> => {
    const { rows } = await q.query<{ rows: string; versions: number[]; max_applied: number }>(
      `SELECT count(*)::text AS rows, coalesce(array_agg(DISTINCT version), '{}') AS versions,
              coalesce(max(applied), 0) AS max_applied FROM ${table}`,
    );
    return { rows: Number(rows[0]!.rows), versions: rows[0]!.versions, maxApplied: rows[0]!.max_applied };
  };

  /** Reads the model the way the API does, over and over, until stopped. */
  const pollReader = (name: string) => {
    const seen: TallyRead[] = [];
    let stopped = false;
    const read = async () => {
      seen.push(await readSummary(env.executor, name));
    };
    const done = (async () => {
      while (!stopped) {
        await read();
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
    return {
      seen,
      async stop() {
        stopped = true;
        await done;
        // At least one read after whatever the test awaited before stopping.
        await read();
      },
    };
  };

  const tally = (name: string, options: Partial<TallyOptions> = {}) =>
    tallyProjection({ name, streamPrefix: `${name}-`, ...options });

  /**
   * The tally, recording what readers of the live schema see while each of its batches is applied,
   * and calling watch meanwhile.
   */
  const watchedTally = (name: string, live: string, options: Partial<TallyOptions>, watch: () => void) => {
    const base = tally(name, options);
    const duringApply: TallyRead[] = [];
    const projection: Projection = {
      ...base,
      async apply(tx, events) {
        watch();
        duringApply.push(await readSummary(tx, `${quoteIdentifier(live)}.${quoteIdentifier(name)}`));
        await base.apply(tx, events);
      },
    };
    return { projection, duringApply };
  };

  const generationSchemas = async (name: string): Promise<string[]> => {
    const prefix = generationSchemaPrefix(await liveSchema(env.executor), name);
    const { rows } = await env.executor.query<{ schema: string }>(
      `SELECT nspname AS schema FROM pg_namespace WHERE left(nspname, length($1)) = $1 ORDER BY 1`,
      [prefix],
    );
    return rows.map((row) => row.schema);
  };

  it('rebuilds under live writes through the runner: readers never see an empty or half-built model, and the rebuilt rows equal the live ones', async () => {
    const name = uniqueName('tally');
    const projection = tally(name);
    const runner = startRunner(projection);
    expect(await runner.waitFor(await appendSome(`${name}-`, 60))).toBe(true);
    const before = (await readTally(env.executor, name)).length;
    expect(before).toBe(120);
    // A brand-new projection is built in place; the first rebuild moves it into a generation.
    expect(await readActiveGeneration(env.executor, name)).toBeNull();

    const reader = pollReader(name);
    let appending = true;
    const appender = (async () => {
      for (let i = 0; appending; i++) {
        await appendTypes(env.store, `${name}-live${i % 3}`, ['Renamed']);
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    let result;
    try {
      result = await rebuildBlueGreen({ executor: env.executor, store: env.store, projection, batchSize: 7 });
    } finally {
      appending = false;
      await appender;
    }
    // The runner goes on after the switch, in the new generation.
    const head = await appendTypes(env.store, `${name}-after`, ['Closed']);
    expect(await runner.waitFor(head)).toBe(true);
    await reader.stop();

    expect(result.version).toBe(1);
    expect(reader.seen.length).toBeGreaterThan(1);
    for (let i = 0; i < reader.seen.length; i++) {
      const read = reader.seen[i]!;
      expect(read.rows).toBeGreaterThanOrEqual(before);
      expect(read.maxApplied).toBe(1);
      if (i > 0) expect(read.rows).toBeGreaterThanOrEqual(reader.seen[i - 1]!.rows);
    }
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 1),
    );
    expect(await readActiveGeneration(env.executor, name)).toMatchObject({ generation: 1, tables: [name] });
    expect(runner.status()).toMatchObject({ state: 'live', failures: 0, failedOn: null });

    // A second rebuild replaces generation 1 by 2 and drops it; the runner still follows.
    await rebuildBlueGreen({ executor: env.executor, store: env.store, projection });
    expect(await runner.waitFor(await appendTypes(env.store, `${name}-after`, ['Opened']))).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 1),
    );
    const active = (await readActiveGeneration(env.executor, name))!;
    expect(active.generation).toBe(2);
    expect(await generationSchemas(name)).toEqual([active.schema]);
  });

  it('a version bump at start-up keeps serving the old version until the new one has caught up, then only the new', async () => {
    const name = uniqueName('tally');
    const v1 = startRunner(tally(name, { version: 1 }));
    expect(await v1.waitFor(await appendSome(`${name}-`, 100))).toBe(true);
    await v1.stop();

    const reader = pollReader(name);
    const live = await liveSchema(env.executor);
    const states: string[] = [];
    let v2: ProcessorRunner | null = null;
    const watch = () => states.push(v2!.status().state);
    const { projection, duringApply } = watchedTally(name, live, { version: 2 }, watch);
    const logger = new RecordingLogger();
    v2 = startRunner(projection, logger);
    expect(await v2.waitFor(await env.store.headPosition())).toBe(true);
    await reader.stop();

    // While the new version was being built, the live names served the whole old version.
    expect(duringApply.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(['rebuilding']));
    expect(duringApply.every((read) => read.rows === 200 && read.versions.join() === '1')).toBe(true);
    const versions = reader.seen.map((read) => read.versions);
    expect(versions.every((v) => v.length === 1)).toBe(true);
    const firstNew = versions.findIndex((v) => v[0] === 2);
    expect(firstNew).toBeGreaterThan(0);
    expect(versions.slice(firstNew).every((v) => v[0] === 2)).toBe(true);
    expect(reader.seen.every((read) => read.rows === 200)).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 2),
    );
    expect(await readCheckpoint(env.executor, name)).toMatchObject({ version: 2, position: v2.position() });
    expect((await logger.entry('info', 'version changed')).context).toMatchObject({ from: 1, to: 2 });
    expect(logger.entries.map((entry) => entry.message).filter((m) => m.startsWith('rebuilding'))).toContain(
      'rebuilding: 100%',
    );

    // It then follows live appends in the new generation.
    expect(await v2.waitFor(await appendTypes(env.store, `${name}-x`, ['Opened']))).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 2),
    );
  });

  it('a runner stopped during a version-bump rebuild leaves the old version serving; the next start builds it', async () => {
    const name = uniqueName('tally');
    const v1 = startRunner(tally(name, { version: 1 }));
    expect(await v1.waitFor(await appendSome(`${name}-`, 20))).toBe(true);
    await v1.stop();
    const serving = await readTally(env.executor, name);

    let building!: () => void;
    const built = new Promise<void>((resolve) => (building = resolve));
    const base = tally(name, { version: 2 });
    const v2 = startRunner({
      ...base,
      async apply(tx, events) {
        building();
        await base.apply(tx, events);
      },
    });
    // Stopped the moment it begins applying (a poll could come after the rebuild's end), yet bounded.
    await Promise.race([
      built,
      new Promise<never>((_, reject) =>
        setTimeout(
          () => reject(new Error('the version-bump rebuild never began')),
          scaledWait(20_000),
        ).unref(),
      ),
    ]);
    await v2.stop();
    expect(await readTally(env.executor, name)).toEqual(serving);
    expect(await readCheckpoint(env.executor, name)).toMatchObject({ version: 1 });

    const again = startRunner(base);
    expect(await again.waitFor(await env.store.headPosition())).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 2),
    );
    expect(await generationSchemas(name)).toEqual([(await readActiveGeneration(env.executor, name))!.schema]);
  });

  it('a rebuild that fails leaves the old generation serving, and the next one starts over cleanly', async () => {
    const name = uniqueName('tally');
    const runner = startRunner(tally(name));
    expect(await runner.waitFor(await appendSome(`${name}-`, 30))).toBe(true);
    await rebuildBlueGreen({ executor: env.executor, store: env.store, projection: tally(name) });
    const serving = await readTally(env.executor, name);

    let batches = 0;
    const failing = tally(name, { failWhile: () => ++batches > 3 });
    await expect(
      rebuildBlueGreen({ executor: env.executor, store: env.store, projection: failing, batchSize: 4 }),
    ).rejects.toThrow('cannot apply');
    expect(await readTally(env.executor, name)).toEqual(serving);
    expect(await generationSchemas(name)).toHaveLength(2);

    await rebuildBlueGreen({ executor: env.executor, store: env.store, projection: tally(name) });
    expect(await readTally(env.executor, name)).toEqual(serving);
    expect(await generationSchemas(name)).toEqual([(await readActiveGeneration(env.executor, name))!.schema]);
    expect(await runner.waitFor(await appendTypes(env.store, `${name}-z`, ['Closed']))).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(
      expectedTally(await storedEvents(env.store, `${name}-`), 1),
    );
  });
});
