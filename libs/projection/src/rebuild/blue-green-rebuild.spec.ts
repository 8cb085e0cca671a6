import type { RecordedEvent } from '@switchyard/event-store';
import { describeEachDatabase } from '@switchyard/testing';
import { readCheckpoint } from '../checkpoint/checkpoint-store';
import { generationSchemaPrefix, liveSchema } from '../generations/generation-schema';
import { readActiveGeneration } from '../generations/generation-table';
import { startLiveWriter } from '../test/live-writer';
import {
  appendTypes,
  openProjectionTestEnv,
  uniqueName,
  type ProjectionTestEnv,
} from '../test/projection-test-env';
import { readTally, tallyProjection, type TallyOptions } from '../test/tally-projection';
import { rebuildBlueGreen } from './blue-green-rebuild';

const TYPES = ['Opened', 'Renamed', 'Labelled', 'Closed'];

describeEachDatabase('rebuildBlueGreen', (db) => {
  let env: ProjectionTestEnv;
  beforeAll(async () => {
    env = await openProjectionTestEnv(db);
  });
  afterAll(() => env.close());

  const appendSome = async (prefix: string, appends: number) => {
    let head = '';
    for (let i = 0; i < appends; i++) {
      head = await appendTypes(env.store, `${prefix}${i % 5}`, [TYPES[i % 4]!, TYPES[(i + 1) % 4]!]);
    }
    return head;
  };

  const storedEvents = async (prefix: string): Promise<RecordedEvent[]> => {
    const page = await env.store.readAll({ after: 'start', limit: 100_000 });
    return page.events.filter((event) => event.streamId.startsWith(prefix));
  };

  /** What the tally must hold: every event of the test's streams, applied once, by that version. */
  const expectedTally = (events: RecordedEvent[], version: number) =>
    events
      .map((e) => ({ eventId: e.eventId, streamId: e.streamId, type: e.type, version, applied: 1 }))
      .sort((a, b) => (a.streamId + a.eventId < b.streamId + b.eventId ? -1 : 1));

  /** Reads the model the way the API does, over and over, until stopped. */
  const pollReader = (name: string) => {
    const seen: Array<{ rows: number; versions: number[]; maxApplied: number }> = [];
    let stopped = false;
    const read = async () => {
      const { rows } = await env.executor.query<{ rows: string; versions: number[]; max_applied: number }>(
        `SELECT count(*)::text AS rows, coalesce(array_agg(DISTINCT version), '{}') AS versions,
                coalesce(max(applied), 0) AS max_applied FROM ${name}`,
      );
      seen.push({
        rows: Number(rows[0]!.rows),
        versions: rows[0]!.versions,
        maxApplied: rows[0]!.max_applied,
      });
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

  it('rebuilds under live writes: readers never see an empty or half-built model, and the rebuilt rows equal the live ones', async () => {
    const name = uniqueName('tally');
    const projection = tally(name);
    await appendSome(`${name}-`, 60);
    const writer = await startLiveWriter(env.executor, env.store, projection);
    await writer.reached((await env.store.headPosition())!);
    const before = (await readTally(env.executor, name)).length;
    expect(before).toBe(120);

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
    // Live writes go on after the switch, into the new generation.
    const head = await appendTypes(env.store, `${name}-after`, ['Closed']);
    await writer.reached(head);
    await reader.stop();
    await writer.stop();

    expect(result.version).toBe(1);
    expect(reader.seen.length).toBeGreaterThan(0);
    for (let i = 0; i < reader.seen.length; i++) {
      const read = reader.seen[i]!;
      expect(read.rows).toBeGreaterThanOrEqual(before);
      expect(read.maxApplied).toBe(1);
      if (i > 0) expect(read.rows).toBeGreaterThanOrEqual(reader.seen[i - 1]!.rows);
    }
    expect(await readTally(env.executor, name)).toEqual(expectedTally(await storedEvents(`${name}-`), 1));
    const active = await readActiveGeneration(env.executor, name);
    expect(active).toMatchObject({ generation: 1, tables: [name] });

    // A second rebuild replaces generation 1 by 2 and drops it.
    await rebuildBlueGreen({ executor: env.executor, store: env.store, projection });
    expect(await readTally(env.executor, name)).toEqual(expectedTally(await storedEvents(`${name}-`), 1));
    expect(await generationSchemas(name)).toEqual([(await readActiveGeneration(env.executor, name))!.schema]);
    expect((await readActiveGeneration(env.executor, name))!.generation).toBe(2);
  });

  it('on a version bump keeps serving the old version until the new one has caught up, then only the new', async () => {
    const name = uniqueName('tally');
    await appendSome(`${name}-`, 100);
    const writer = await startLiveWriter(env.executor, env.store, tally(name, { version: 1 }));
    await writer.reached((await env.store.headPosition())!);
    await writer.stop();

    const reader = pollReader(name);
    const result = await rebuildBlueGreen({
      executor: env.executor,
      store: env.store,
      projection: tally(name, { version: 2 }),
      batchSize: 5,
    });
    await reader.stop();

    const versions = reader.seen.map((read) => read.versions);
    expect(versions.every((v) => v.length === 1)).toBe(true);
    const firstNew = versions.findIndex((v) => v[0] === 2);
    expect(firstNew).toBeGreaterThan(0);
    expect(versions.slice(firstNew).every((v) => v[0] === 2)).toBe(true);
    expect(reader.seen.every((read) => read.rows === 200)).toBe(true);
    expect(await readTally(env.executor, name)).toEqual(expectedTally(await storedEvents(`${name}-`), 2));
    expect(await readCheckpoint(env.executor, name)).toMatchObject({ version: 2, position: result.position });
  });

  it('a rebuild that fails leaves the old generation serving, and the next one starts over cleanly', async () => {
    const name = uniqueName('tally');
    await appendSome(`${name}-`, 30);
    const writer = await startLiveWriter(env.executor, env.store, tally(name));
    await writer.reached((await env.store.headPosition())!);
    await writer.stop();
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
  });

  const generationSchemas = async (name: string): Promise<string[]> => {
    const prefix = generationSchemaPrefix(await liveSchema(env.executor), name);
    const { rows } = await env.executor.query<{ schema: string }>(
      `SELECT nspname AS schema FROM pg_namespace WHERE left(nspname, length($1)) = $1 ORDER BY 1`,
      [prefix],
    );
    return rows.map((row) => row.schema);
  };
});
