import { randomBytes } from 'node:crypto';
import { type EventStore, type NewEvent, type Position, type RecordedEvent } from '@switchyard/event-store';
import { SqlEventStore } from '@switchyard/event-store/sql';
import { type SqlExecutor } from '@switchyard/sql';
import { untilSettled, type TestDatabase } from '@switchyard/testing';
import { ProcessorRunner, type ProcessorRunnerOptions } from '../processor/processor-runner';
import type { Projection } from '../projection';
import { RecordingLogger } from './recording-logger';

/**
 * One database per spec file and backend (opening PGlite takes seconds); tests keep out of each
 * other's way by naming their own projections, tables and streams with uniqueName().
 */
export interface ProjectionTestEnv {
  executor: SqlExecutor;
  store: SqlEventStore;
  close(): Promise<void>;
}

export async function openProjectionTestEnv(db: TestDatabase): Promise<ProjectionTestEnv> {
  const executor = await db.open();
  const store = await SqlEventStore.open(executor);
  return {
    executor,
    store,
    async close() {
      await store.close();
      await executor.close();
    },
  };
}

/**
 * Runners a spec starts on its env, with test-speed retries and a generous wait (a shared CI machine
 * can stall a commit for seconds; a test waiting for false names its own timeout); stopAll() after
 * each test.
 */
export function runnersOn(env: ProjectionTestEnv) {
  const started: ProcessorRunner[] = [];
  return {
    start(projection: Projection, options: Partial<ProcessorRunnerOptions> = {}): ProcessorRunner {
      const runner = new ProcessorRunner(projection, {
        executor: env.executor,
        store: env.store,
        logger: new RecordingLogger(),
        maxRetryDelayMs: 20,
        defaultWaitTimeoutMs: 20_000,
        ...options,
      });
      started.push(runner);
      runner.start();
      return runner;
    },
    async stopAll(): Promise<void> {
      await Promise.all(started.splice(0).map((runner) => runner.stop()));
    },
  };
}

/**
 * A suite's env and runners: opened before its cases, runners stopped after each, closed after
 * all. The properties are set once the suite has begun.
 */
export function projectionTestSuite(db: TestDatabase): {
  env: ProjectionTestEnv;
  runners: ReturnType<typeof runnersOn>;
} {
  const suite = {} as { env: ProjectionTestEnv; runners: ReturnType<typeof runnersOn> };
  beforeAll(async () => {
    suite.env = await openProjectionTestEnv(db);
    suite.runners = runnersOn(suite.env);
  });
  afterEach(() => suite.runners.stopAll());
  afterAll(() => suite.env.close());
  return suite;
}

/** Also a safe SQL identifier: projection names double as table names in the fixtures. */
export const uniqueName = (prefix: string): string => `${prefix}_${randomBytes(5).toString('hex')}`;

/** Appends events of the given types to the stream; returns the position of the last one. */
export async function appendTypes(
  store: EventStore,
  streamId: string,
  types: readonly string[],
): Promise<Position> {
  const events: NewEvent[] = types.map((type, index) => ({ type, data: { index } }));
  const result = await store.appendToStream(streamId, events, { expectedRevision: 'any' });
  return result.lastPosition;
}

/**
 * Every stored event of the streams whose ids start with the prefix (one test's streams); with
 * `through` (a position an append returned), once the feed includes it.
 */
export async function storedEvents(
  store: EventStore,
  prefix: string,
  through?: Position,
): Promise<RecordedEvent[]> {
  if (through) await untilSettled(store, through);
  const page = await store.readAll({ after: 'start', limit: 100_000 });
  return page.events.filter((event) => event.streamId.startsWith(prefix));
}
