import { comparePositions, type EventFilter, type EventStore, type Position } from '@switchyard/event-store';
import { forEachConcurrently } from '@switchyard/kernel';
import { LONG_WORK, type SqlExecutor, type SqlQueryable } from '@switchyard/sql';
import { ensureCheckpointTable } from '../checkpoint/checkpoint-table';
import type { CheckpointPublisher } from '../cross-process/checkpoint-signal';
import {
  generationSchemaName,
  liveSchema,
  quoteIdentifier,
  tablesIn,
  useGeneration,
} from '../generations/generation-schema';
import {
  ensureGenerationTable,
  readActiveGeneration,
  type Generation,
} from '../generations/generation-table';
import { dropStaleGenerations } from '../generations/stale-generations';
import { switchGeneration } from '../generations/switch-generation';
import type { Projection } from '../projection';
import { bulkReadPlan } from './bulk-read-plan';
import { readAheadFeed } from './read-ahead-feed';

export interface RebuildOptions {
  /** The read-model database. */
  executor: SqlExecutor;
  store: EventStore;
  projection: Projection;
  /** Events per page of the feed, and per transaction. Default 2000. */
  batchSize?: number;
  /** Called before the first page and after each; total is null when the store cannot count. */
  onProgress?: (done: number, total: number | null) => void;
  /** Wakes waiting readers in other processes once the rebuilt read model serves. */
  publisher?: CheckpointPublisher;
  /** Stops the rebuild between two pages (RebuildAbortedError); the current version keeps serving. */
  signal?: AbortSignal;
}

export interface RebuildResult {
  projection: string;
  version: number;
  /** Events applied. */
  events: number;
  /** Rows in the rebuilt read model, when the projection can count them. */
  records?: number;
  seconds: number;
  /** Where the checkpoint was left; the live runner continues from here. */
  position: Position | 'start';
}

/** Two rebuilds of one projection would build the same generation. */
export class RebuildRunningError extends Error {
  constructor(readonly projection: string) {
    super(`Projection ${projection} is already being rebuilt by another process`);
    this.name = 'RebuildRunningError';
  }
}

export class RebuildAbortedError extends Error {
  constructor(readonly projection: string) {
    super(`The rebuild of ${projection} was stopped before its switch`);
    this.name = 'RebuildAbortedError';
  }
}

/**
 * Rebuilds a projection into a new generation of its tables while the current one keeps serving,
 * then switches readers to it in one transaction once it has caught up with the feed.
 *  1. A fresh schema rm_<live>_<projection>_g<n+1>, left-overs of interrupted builds dropped.
 *  2. Bulk load from the first event: read-ahead pages (unfiltered when the projection wants most
 *     of the feed, see bulkReadPlan), the projection's bulk path when it has one (COPY or
 *     multi-row writes, as many batches in flight as it allows, then its finishing steps side by
 *     side: derived tables, secondary indexes), asynchronous commits, no checkpoint. Nobody reads
 *     these tables yet, so a crash here only means starting over.
 *  3. Tail: the events appended meanwhile, through the ordinary apply.
 *  4. Switch, holding the checkpoint row lock: if the live runner has got further than the new
 *     generation, release and catch up again; else views to the new tables, checkpoint to the
 *     new version and position (never behind what readers were promised), commit.
 *  5. Drop the old generation (or nothing, when it was the tables built in place: the switch
 *     replaced those).
 * The live runner's writes lock the same checkpoint row first (enterActiveGeneration), so its
 * transaction in flight either commits before the switch or conflicts on the moved checkpoint
 * after it and continues from there, in the new generation.
 */
export async function rebuildBlueGreen(options: RebuildOptions): Promise<RebuildResult> {
  const { executor, store, projection } = options;
  const { name, version } = projection;
  const started = performance.now();
  const release = await executor.acquireSessionLock(`sy_rebuild:${name}`);
  if (!release) throw new RebuildRunningError(name);
  try {
    const live = await liveSchema(executor);
    const previous = await executor.transaction(async (tx) => {
      await ensureCheckpointTable(tx);
      await ensureGenerationTable(tx);
      return readActiveGeneration(tx, name);
    });
    const next = { name, generation: (previous?.generation ?? 0) + 1, schema: '' };
    next.schema = generationSchemaName(live, name, next.generation);
    await executor.transaction((tx) => dropStaleGenerations(tx, live, name), LONG_WORK);
    const inGeneration = <T>(work: (tx: SqlQueryable) => Promise<T>) =>
      executor.transaction(async (tx) => {
        await useGeneration(tx, next.schema, live, { asynchronousCommit: true });
        return work(tx);
      }, LONG_WORK);
    const filter: EventFilter | undefined = projection.eventTypes
      ? { eventTypes: projection.eventTypes }
      : undefined;
    // Counting scans the feed's indexes: it runs while the tables are being created.
    const counting = Promise.all([store.countEvents(filter), filter ? store.countEvents() : null]);
    counting.catch(() => undefined);
    await executor.exec(`CREATE SCHEMA ${quoteIdentifier(next.schema)}`);
    const bulk = projection.bulkLoad?.();
    await inGeneration((tx) => (bulk ? bulk.createTables(tx) : projection.setup(tx)));
    const [total, feedSize] = await counting;
    const bulkRead = bulkReadPlan(filter, total, feedSize);

    let done = 0;
    options.onProgress?.(done, total);
    const replay = async (from: Position | 'start', useBulk: boolean): Promise<Position | 'start'> => {
      const apply = useBulk && bulk ? bulk.apply.bind(bulk) : projection.apply.bind(projection);
      const read = useBulk && bulk ? bulkRead : { filter, keep: () => true };
      // A bulk load may write a batch while the next one is being prepared (BulkLoad.batchesInFlight).
      const inFlight = useBulk && bulk ? Math.max(1, bulk.batchesInFlight ?? 1) : 1;
      const writing = new Set<Promise<void>>();
      let failure: { error: unknown } | null = null;
      let position = from;
      try {
        for await (const page of readAheadFeed(store, {
          after: from,
          limit: options.batchSize ?? 2000,
          filter: read.filter,
        })) {
          if (failure) break;
          if (options.signal?.aborted) throw new RebuildAbortedError(name);
          const events = read.filter === filter ? page.events : page.events.filter(read.keep);
          if (events.length > 0) {
            let calling!: () => void;
            const called = new Promise<void>((resolve) => (calling = resolve));
            const batch: Promise<void> = inGeneration((tx) => {
              calling();
              return apply(tx, events);
            })
              .then(() => {
                done += events.length;
                options.onProgress?.(done, total);
              })
              .catch((error: unknown) => {
                failure ??= { error };
              })
              .finally(() => writing.delete(batch));
            writing.add(batch);
            // The next batch's apply is called after this one's: batches start in feed order.
            await Promise.race([called, batch]);
            if (writing.size >= inFlight) await Promise.race(writing);
          }
          position = page.lastPosition;
        }
      } finally {
        await Promise.all(writing);
      }
      if (failure) throw (failure as { error: unknown }).error;
      return position;
    };

    let position = await replay('start', true);
    if (bulk) await forEachConcurrently(bulk.finishSteps(), FINISH_CONCURRENCY, (step) => inGeneration(step));
    // Readers use these tables right after the switch: give the planner statistics now.
    const tables = await tablesIn(executor, next.schema);
    if (tables.length > 0) {
      const analyze = `ANALYZE ${tables.map((t) => `${quoteIdentifier(next.schema)}.${quoteIdentifier(t)}`).join(', ')}`;
      await executor.transaction((tx) => tx.exec(analyze), LONG_WORK);
    }

    let switched: Generation | null = null;
    while (!switched) {
      position = await replay(position, false);
      const at = position;
      switched = await executor.transaction(async (tx) => {
        const { rows } = await tx.query<{ position: string }>(
          'SELECT position FROM sy_projection_checkpoints WHERE name = $1 FOR UPDATE',
          [name],
        );
        // The live runner has applied events the new generation lacks: serving it now would take
        // them back from readers. Release the lock and catch up again.
        if (rows[0] && comparePositions(rows[0].position, at) > 0) return null;
        return switchGeneration(tx, { name, version, position: at, live, previous, next });
      }, LONG_WORK);
    }
    await executor.transaction((tx) => dropStaleGenerations(tx, live, name), LONG_WORK);
    options.publisher?.publish({ name, position }).catch(() => undefined);

    const records = projection.countRecords ? await projection.countRecords(executor) : undefined;
    return {
      projection: name,
      version,
      events: done,
      ...(records === undefined ? {} : { records }),
      seconds: (performance.now() - started) / 1000,
      position,
    };
  } finally {
    await release();
  }
}

/**
 * Finishing steps at once: two, for the two cores of a small server; PostgreSQL adds its own
 * parallel workers to B-tree builds where it can.
 */
const FINISH_CONCURRENCY = 2;
