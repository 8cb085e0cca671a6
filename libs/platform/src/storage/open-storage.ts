import { join } from 'node:path';
import { PgExecutor, PgliteExecutor, type SqlExecutor } from '@switchyard/sql';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { type EventSchemas, type EventStore } from '@switchyard/event-store';
import type { Projection } from '@switchyard/projection';
import type { SwitchyardConfig } from '../config/switchyard-config';
import { lockDataDir } from './data-dir-lock';
import { ensureReadModelSchema } from './ensure-read-model-schema';

export interface Storage {
  /** Read models (and events, unless EventStoreDB holds them). */
  executor: SqlExecutor;
  store: EventStore;
  /** Human description for the start-up log line. */
  description: string;
  close(): Promise<void>;
}

export const IN_MEMORY_DATA_DIR = 'memory://';

/**
 * Chooses the stores from configuration: PostgreSQL when DATABASE_URL is set, else the embedded
 * PGlite data directory; events go to EventStoreDB when EVENTSTORE_URL is set. Returns only once
 * the whole schema exists (events, checkpoints, and the tables of every read model named), so
 * whatever the caller does next finds its tables, whichever process started first.
 */
export async function openStorage(
  config: SwitchyardConfig,
  readModels: readonly Projection[],
  schemas?: EventSchemas,
): Promise<Storage> {
  const closers: Array<() => Promise<void> | void> = [];
  try {
    let executor: SqlExecutor;
    let description: string;
    if (config.databaseUrl) {
      executor = await PgExecutor.open(config.databaseUrl, { limits: config.databaseLimits });
      description = `PostgreSQL ${redact(config.databaseUrl)}`;
    } else if (config.dataDir === IN_MEMORY_DATA_DIR) {
      executor = await PgliteExecutor.open();
      description = 'PGlite (in memory)';
    } else {
      closers.push(lockDataDir(config.dataDir));
      executor = await PgliteExecutor.open(join(config.dataDir, 'pglite'));
      description = `PGlite at ${config.dataDir}`;
    }
    closers.unshift(() => executor.close());

    let store: EventStore;
    if (config.eventStoreUrl) {
      const { EsdbEventStore } = await import('@switchyard/event-store/esdb');
      store = await EsdbEventStore.open(config.eventStoreUrl, schemas);
      description += `, events in EventStoreDB ${redact(config.eventStoreUrl)}`;
    } else {
      store = await SqlEventStore.open(executor, schemas);
    }
    closers.unshift(() => store.close());
    await ensureReadModelSchema(executor, readModels);

    return {
      executor,
      store,
      description,
      async close() {
        for (const close of closers) await close();
      },
    };
  } catch (error) {
    for (const close of closers) await Promise.resolve(close()).catch(() => undefined);
    throw error;
  }
}

const redact = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable url)';
  }
};
