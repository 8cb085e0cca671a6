import { authCredentialsProjection } from '@switchyard/auth';
import type { GitHubCodeHost } from '@switchyard/github';
import { ServiceOrigin } from '@switchyard/github';
import { CommandService } from '@switchyard/event-store/application';
import { createLogger, type ReadinessContributor } from '@switchyard/http';
import type { MergeQueueEngine } from '@switchyard/merge-queue/engine';
import { ConfigError, type Storage, type SwitchyardConfig } from '@switchyard/platform';
import {
  BalancedLeases,
  CheckpointFreshness,
  deploymentId,
  openCheckpointSignal,
  PeriodicRunner,
  ProcessorHost,
  ProcessorRunner,
  type HostedRunner,
  type OwnershipSource,
  type ProcessorRunnerOptions,
  type Projection,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { Logger } from 'pino';
import { openSwitchyardStorage } from '../open-switchyard-storage';
import { caughtUpReadiness, checkpointPositions, runnerPositions } from '../caught-up-readiness';
import { processorReadiness, type DeploymentProcessor } from '../processor-readiness';
import { isExternalFact, switchyardProjections, switchyardReactors } from '../switchyard-projections';
import { EngineLayout } from './engine-layout';
import { openMergeQueueEngine } from './merge-queue-engine';
import { openProcessCodeHost } from './process-code-host';
import { ROLE_TRAITS, type RuntimeRole } from './runtime-roles';

/** How often an engine retries for a partition's lease: bounds the takeover after the lease's ttl. */
const ENGINE_LEASE_RETRY_MS = 1000;

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
  /** The merge-queue engine where this process runs it; null elsewhere. */
  mergeQueue: MergeQueueEngine | null;
  /** The process's one code host (shared by its HTTP features and processors); null for the CLI. */
  codeHost: GitHubCodeHost | null;
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
    throw new ConfigError([
      `The ${options.role} process shares its stores with the projector: set DATABASE_URL (PostgreSQL).`,
    ]);
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
    const runsEngine = traits.processors === 'all' || traits.processors === 'engine';
    const runsProjectorReactors = traits.processors === 'all' || traits.processors === 'projections';
    const codeHost =
      traits.servesHttp || runsEngine || runsProjectorReactors
        ? openProcessCodeHost({ config, storage, serviceOrigin, logger })
        : null;
    const layout = EngineLayout.of(config);
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
        // The effects reactors too: a pause waits for them to pass it (MergeFence).
        projections: [...names, ...layout.effectsPartitions()],
        signal: signal.signal,
        defaultTimeoutMs: waitMs,
      });
      await checkpoints.start();
      const started = checkpoints;
      cleanups.unshift(() => started.close());
    }

    let processors: ProcessorHost | null = null;
    let mergeQueue: MergeQueueEngine | null = null;
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
        parks: isExternalFact,
      };
      const runners: HostedRunner[] = [];
      if (buildsReadModels)
        for (const projection of projections) runners.push(new ProcessorRunner(projection, runnerOptions));
      if (runsProjectorReactors && codeHost)
        for (const reactor of switchyardReactors({
          sql: storage.executor,
          freshness: readModels,
          codeHost,
          logger,
        }))
          runners.push(new ProcessorRunner(reactor, runnerOptions));
      if (runsEngine && codeHost) {
        const engine = openMergeQueueEngine({ logger, storage, codeHost, freshness: readModels, layout });
        const ownership = await engineOwnership(config, storage, layout, logger);
        if (ownership.close) cleanups.unshift(ownership.close);
        const engineOptions = {
          ...runnerOptions,
          ownership: ownership.source,
          lockRetryMs: ownership.source ? ENGINE_LEASE_RETRY_MS : traits.lockRetryMs,
        };
        for (const reactor of engine.reactors) runners.push(new ProcessorRunner(reactor, engineOptions));
        for (const timer of engine.timers) runners.push(new PeriodicRunner(timer, engineOptions));
        mergeQueue = engine.engine;
      }
      const host: ProcessorHost = new ProcessorHost(runners, waitMs, { executor: storage.executor, logger });
      host.start();
      cleanups.unshift(() => host.stop());
      processors = host;
    }

    const readiness: ReadinessContributor[] = [];
    if (traits.servesHttp && codeHost)
      readiness.push(
        processorReadiness({
          executor: storage.executor,
          store: storage.store,
          processors: deploymentProcessors(projections, layout, storage, codeHost, logger),
          host: processors,
        }),
      );

    let freshness: ReadModelFreshness | null = null;
    if (traits.freshness === 'own-processors') freshness = processors;
    if (checkpoints) freshness = checkpoints;
    // Every request is authorized from the credentials read model: not ready before it has the head.
    const positions = processors?.runner(authCredentialsProjection.name)
      ? runnerPositions(processors)
      : checkpoints && checkpointPositions(storage.executor);
    if (positions && traits.servesHttp) {
      readiness.push(
        caughtUpReadiness({
          readModels: [authCredentialsProjection],
          headPosition: () => storage.store.headPosition(),
          readAll: (options) => storage.store.readAll(options),
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
      codeHost,
      serviceOrigin,
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Every processor of a deployment, whichever process runs it: what /readyz reports on. */
function deploymentProcessors(
  projections: readonly Projection[],
  layout: EngineLayout,
  storage: Storage,
  codeHost: GitHubCodeHost,
  logger: Logger,
): DeploymentProcessor[] {
  // Made only for their names: nothing runs them here.
  const reactors = switchyardReactors({
    sql: storage.executor,
    freshness: { assertRunning: async () => undefined, waitFor: async () => true },
    codeHost,
    logger,
  });
  return [
    ...projections.map((projection) => ({ name: projection.name, kind: 'projection' as const })),
    ...reactors.map((reactor) => ({ name: reactor.name, kind: 'reactor' as const })),
    ...layout.processorNames(),
  ];
}

/**
 * Who may act for the merge-queue engine: one owner per partition across every process. With
 * REDIS_URL (a multi-service deployment) balanced Redis leases: the engines share the partitions
 * out (at most ceil(partitions / live engines) each), and a dead or partitioned owner loses its
 * leases within their ttl, so another engine takes over; otherwise a PostgreSQL advisory lock
 * per processor (PGlite: the one process). Every process that may run the engine decides the
 * same way from the same settings.
 */
async function engineOwnership(
  config: SwitchyardConfig,
  storage: Storage,
  layout: EngineLayout,
  logger: Logger,
): Promise<{ source: OwnershipSource | undefined; close?: () => Promise<void> }> {
  if (!config.redisUrl) return { source: undefined };
  // Scoped by the deployment: others sharing the Redis server have leases of their own.
  const scope = await deploymentId(storage.executor);
  const leases = await BalancedLeases.join(config.redisUrl, {
    scope,
    groupOf: layout.groupOf,
    groups: layout.partitions,
    logger,
  });
  return { source: leases, close: () => leases.close() };
}
