import { authCredentialsProjection } from '@switchyard/auth';
import { ServiceOrigin } from '@switchyard/code-host/github';
import { CommandService } from '@switchyard/event-store/application';
import { createLogger, type ReadinessContributor } from '@switchyard/http';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import {
  CheckpointFreshness,
  deploymentId,
  openCheckpointSignal,
  ProcessorHost,
  ProcessorRunner,
  RedisLeases,
  type OwnershipSource,
  type ProcessorRunnerOptions,
  type Projection,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { Logger } from 'pino';
import { openSwitchyardStorage } from '../open-switchyard-storage';
import { caughtUpReadiness, checkpointPositions, runnerPositions } from '../caught-up-readiness';
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
  /** The processors this process runs (all-in-one, projector, engine, CLI), started. */
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

    // Read-your-writes from the checkpoints others commit, for the api and CLI, and for the
    // engine's reactors, which read the read models the projector builds.
    let checkpoints: CheckpointFreshness | null = null;
    if (traits.freshness === 'checkpoints' && signal) {
      checkpoints = new CheckpointFreshness({
        executor: storage.executor,
        projections: names,
        signal: signal.signal,
        defaultTimeoutMs: waitMs,
      });
      await checkpoints.start();
      const started = checkpoints;
      cleanups.unshift(() => started.close());
    }

    let processors: ProcessorHost | null = null;
    let mergeQueue: MergeQueueEngine | null = null;
    const readiness: ReadinessContributor[] = [];
    if (traits.processors !== 'none') {
      const buildsReadModels = traits.processors !== 'engine';
      // Reactors wait on the read models they read: built by this same host, or by the projector.
      const readModels: ReadModelFreshness | null = buildsReadModels
        ? {
            assertRunning: (models) => host.assertRunning(models),
            waitFor: (models, position, timeoutMs) => host.waitFor(models, position, timeoutMs),
          }
        : checkpoints;
      if (!readModels) throw new Error(`The ${options.role} process has no way to wait for the read models`);
      const runnerOptions: ProcessorRunnerOptions = {
        executor: storage.executor,
        store: storage.store,
        commands: new CommandService(storage.store),
        logger,
        defaultWaitTimeoutMs: waitMs,
        publisher: announces ? signal?.signal : undefined,
        lockRetryMs: traits.lockRetryMs,
      };
      const runners: ProcessorRunner[] = [];
      if (buildsReadModels) {
        const reactors = switchyardReactors({
          config,
          logger,
          serviceOrigin,
          sql: storage.executor,
          freshness: readModels,
        });
        for (const processor of [...projections, ...reactors])
          runners.push(new ProcessorRunner(processor, runnerOptions));
      }
      if (traits.processors === 'all' || traits.processors === 'engine') {
        const engine = openMergeQueueEngine({
          config,
          logger,
          serviceOrigin,
          storage,
          freshness: readModels,
        });
        const ownership = await engineOwnership(config, storage, logger);
        if (ownership.close) cleanups.unshift(ownership.close);
        for (const reactor of engine.reactors)
          runners.push(new ProcessorRunner(reactor, { ...runnerOptions, ownership: ownership.source }));
        mergeQueue = engine;
      }
      const host: ProcessorHost = new ProcessorHost(runners, waitMs);
      host.start();
      cleanups.unshift(() => host.stop());
      if (mergeQueue) {
        const timer = mergeQueue.timer;
        timer.start();
        cleanups.unshift(() => timer.stop());
      }
      readiness.push(projectionReadiness(host, storage.store));
      processors = host;
    }

    let freshness: ReadModelFreshness | null = null;
    if (traits.freshness === 'own-processors') freshness = processors;
    if (checkpoints) {
      if (traits.processors === 'none')
        readiness.push(checkpointReadiness(storage.executor, names, storage.store));
      freshness = checkpoints;
    }
    // Every request is authorized from the credentials read model: not ready before it has the head.
    const positions = processors?.runner(authCredentialsProjection.name)
      ? runnerPositions(processors)
      : checkpoints && checkpointPositions(storage.executor);
    if (positions) {
      readiness.push(
        caughtUpReadiness({
          readModels: [authCredentialsProjection.name],
          headPosition: () => storage.store.headPosition(),
          positions,
        }),
      );
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

/**
 * Who may act for the merge-queue engine: one owner per engine reactor across every process. With
 * REDIS_URL (a multi-service deployment) a Redis lease, which a dead or partitioned owner loses
 * within its ttl, so another engine takes over; otherwise a PostgreSQL advisory lock (PGlite: the
 * one process). Every process that may run the engine decides the same way from the same settings.
 */
async function engineOwnership(
  config: SwitchyardConfig,
  storage: Storage,
  logger: Logger,
): Promise<{ source: OwnershipSource | undefined; close?: () => Promise<void> }> {
  if (!config.redisUrl) return { source: undefined };
  // Scoped by the deployment: others sharing the Redis server have leases of their own.
  const scope = await deploymentId(storage.executor);
  const leases = RedisLeases.connect(config.redisUrl, { logger, scope });
  return { source: leases, close: () => leases.close() };
}
