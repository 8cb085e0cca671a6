import { ServiceOrigin } from '@switchyard/code-host/github';
import { CommandService } from '@switchyard/event-store/application';
import { createLogger, type ReadinessContributor } from '@switchyard/http';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import {
  CheckpointFreshness,
  openCheckpointSignal,
  ProcessorHost,
  type Projection,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { Logger } from 'pino';
import { openSwitchyardStorage } from '../open-switchyard-storage';
import { checkpointReadiness, projectionReadiness } from '../projection-readiness';
import { switchyardProjections, switchyardReactors } from '../switchyard-projections';
import type { MergeQueueEngine } from '@switchyard/merge-queue/engine';
import { openMergeQueueEngine } from './merge-queue-engine';
import { ROLE_TRAITS, type RuntimeRole } from './runtime-roles';

export interface RuntimeOptions {
  role: RuntimeRole;
  logger?: Logger;
}

/** What every Switchyard process stands on: stores, processors, freshness and readiness. */
export interface SwitchyardRuntime {
  role: RuntimeRole;
  config: SwitchyardConfig;
  logger: Logger;
  storage: Storage;
  projections: readonly Projection[];
  /** The processors this process runs (all-in-one, projector, CLI), started. */
  processors: ProcessorHost | null;
  /** Read-your-writes for this process's writes; null where the role writes nothing. */
  freshness: ReadModelFreshness | null;
  readiness: ReadinessContributor[];
  /** The merge-queue engine where this process runs the processors; null elsewhere. */
  mergeQueue: MergeQueueEngine | null;
  /** Where this process listens, once it does: the sandbox forge's origin for the code host in sandbox mode. */
  serviceOrigin: ServiceOrigin;
  /** Stops everything the runtime started, in reverse order. */
  close(): Promise<void>;
}

/**
 * The one runtime factory: the all-in-one, api, projector, engine and CLI open their stores,
 * processors, checkpoint announcements and read-your-writes here, each as its role's traits say.
 */
export async function openRuntime(
  config: SwitchyardConfig,
  options: RuntimeOptions,
): Promise<SwitchyardRuntime> {
  const traits = ROLE_TRAITS[options.role];
  if (traits.needsDatabaseUrl && !config.databaseUrl) {
    throw new Error(
      `The ${options.role} process shares its stores with the projector: set DATABASE_URL (PostgreSQL).`,
    );
  }
  const logger = options.logger ?? createLogger(config);
  const storage = await openSwitchyardStorage(config);
  const cleanups: Array<() => Promise<void>> = [() => storage.close()];
  const close = async () => {
    for (const cleanup of cleanups) await cleanup();
  };
  try {
    const projections = switchyardProjections();
    const serviceOrigin = new ServiceOrigin();
    const names = projections.map((projection) => projection.name);
    const announces =
      traits.announces === 'always' ||
      (traits.announces === 'shared-database' && config.databaseUrl !== null);
    const listens = traits.freshness === 'checkpoints';
    const signal =
      announces || listens
        ? openCheckpointSignal({ executor: storage.executor, redisUrl: config.redisUrl, logger })
        : null;
    if (signal) cleanups.unshift(() => signal.close());
    const waitMs = Math.max(config.readYourWritesTimeoutMs, traits.minimumWaitMs ?? 0);

    let processors: ProcessorHost | null = null;
    let mergeQueue: MergeQueueEngine | null = null;
    const readiness: ReadinessContributor[] = [];
    if (traits.runsProcessors) {
      // Reactors wait on the read models they read, which this same host builds.
      const hostFreshness: ReadModelFreshness = {
        assertRunning: (readModels) => host.assertRunning(readModels),
        waitFor: (readModels, position, timeoutMs) => host.waitFor(readModels, position, timeoutMs),
      };
      const reactors = switchyardReactors({
        config,
        logger,
        serviceOrigin,
        sql: storage.executor,
        freshness: hostFreshness,
      });
      const engine = openMergeQueueEngine({
        config,
        logger,
        serviceOrigin,
        storage,
        freshness: hostFreshness,
      });
      const host: ProcessorHost = ProcessorHost.of([...projections, ...reactors, ...engine.reactors], {
        executor: storage.executor,
        store: storage.store,
        commands: new CommandService(storage.store),
        logger,
        defaultWaitTimeoutMs: waitMs,
        publisher: announces ? signal?.signal : undefined,
        lockRetryMs: traits.lockRetryMs,
      });
      host.start();
      cleanups.unshift(() => host.stop());
      engine.timer.start();
      mergeQueue = engine;
      cleanups.unshift(() => engine.timer.stop());
      readiness.push(projectionReadiness(host, storage.store));
      processors = host;
    }

    let freshness: ReadModelFreshness | null = null;
    if (traits.freshness === 'own-processors') freshness = processors;
    if (traits.freshness === 'checkpoints' && signal) {
      const checkpoints = new CheckpointFreshness({
        executor: storage.executor,
        projections: names,
        signal: signal.signal,
        defaultTimeoutMs: waitMs,
      });
      await checkpoints.start();
      cleanups.unshift(() => checkpoints.close());
      if (!traits.runsProcessors) readiness.push(checkpointReadiness(storage.executor, names, storage.store));
      freshness = checkpoints;
    }
    return {
      role: options.role,
      config,
      logger,
      storage,
      projections,
      processors,
      freshness,
      readiness,
      mergeQueue,
      serviceOrigin,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
