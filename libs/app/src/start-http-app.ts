import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { ApplicationKeyService } from '@switchyard/auth';
import { CommandService } from '@switchyard/event-store';
import { systemClock, type Clock } from '@switchyard/kernel';
import {
  configureHttpApp,
  createHttpAdapter,
  createLogger,
  PinoNestLogger,
  type ReadinessContributor,
} from '@switchyard/http';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import {
  CheckpointFreshness,
  openCheckpointSignal,
  ProcessorHost,
  type ReadModelFreshness,
} from '@switchyard/projection';
import type { Logger } from 'pino';
import { openSwitchyardStorage } from './open-switchyard-storage';
import { checkpointReadiness, projectionReadiness } from './projection-readiness';
import { switchyardProjections } from './switchyard-projections';
import { SwitchyardModule } from './switchyard.module';
import { SWITCHYARD_VERSION } from './version';

export type HttpRole = 'all-in-one' | 'api';

export interface StartOptions {
  role: HttpRole;
  clock?: Clock;
  logger?: Logger;
  /** Where the one-time bootstrap admin key is shown; stdout by default. */
  announce?: (line: string) => void;
}

export interface RunningHttpApp {
  app: NestFastifyApplication;
  url: string;
  storage: Storage;
  /** The in-process processors (all-in-one only). */
  projections: ProcessorHost | null;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Starts an HTTP process. The all-in-one runs the projections itself and answers read-your-writes
 * from them; the api of a multi-service deployment reads checkpoints that the projector moves,
 * woken by Redis (when configured) or PostgreSQL NOTIFY.
 */
export async function startHttpApp(config: SwitchyardConfig, options: StartOptions): Promise<RunningHttpApp> {
  const logger = options.logger ?? createLogger(config);
  const clock = options.clock ?? systemClock;
  if (options.role === 'api' && !config.databaseUrl) {
    throw new Error('The api process shares its stores with the projector: set DATABASE_URL (PostgreSQL).');
  }
  const storage = await openSwitchyardStorage(config);
  const cleanups: Array<() => Promise<void>> = [() => storage.close()];
  try {
    const projections = switchyardProjections();
    let host: ProcessorHost | null = null;
    let freshness: ReadModelFreshness;
    const readiness: ReadinessContributor[] = [];
    if (options.role === 'all-in-one') {
      // On a shared database other processes (the CLI) wait on these checkpoints: announce them.
      const announcer = config.databaseUrl
        ? openCheckpointSignal({ executor: storage.executor, redisUrl: config.redisUrl, logger })
        : null;
      if (announcer) cleanups.unshift(() => announcer.close());
      host = ProcessorHost.of(projections, {
        executor: storage.executor,
        store: storage.store,
        commands: new CommandService(storage.store),
        logger,
        defaultWaitTimeoutMs: config.readYourWritesTimeoutMs,
        publisher: announcer?.signal,
      });
      host.start();
      const running = host;
      cleanups.unshift(() => running.stop());
      readiness.push(projectionReadiness(host, storage.store));
      freshness = host;
    } else {
      const wakeups = openCheckpointSignal({ executor: storage.executor, redisUrl: config.redisUrl, logger });
      cleanups.unshift(() => wakeups.close());
      const checkpoints = new CheckpointFreshness({
        executor: storage.executor,
        projections: projections.map((projection) => projection.name),
        signal: wakeups.signal,
        defaultTimeoutMs: config.readYourWritesTimeoutMs,
      });
      await checkpoints.start();
      cleanups.unshift(() => checkpoints.close());
      readiness.push(
        checkpointReadiness(
          storage.executor,
          projections.map((p) => p.name),
          storage.store,
        ),
      );
      freshness = checkpoints;
    }

    const app = await NestFactory.create<NestFastifyApplication>(
      SwitchyardModule.forRoot({ config, storage, freshness, clock }, readiness),
      createHttpAdapter(config, logger),
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
    cleanups.unshift(() => app.close());
    configureHttpApp(app, { version: SWITCHYARD_VERSION });
    app.enableShutdownHooks();

    await announceBootstrapKey(
      app,
      config,
      options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
      logger,
    );
    await app.listen({ port: config.port, host: config.host });
    const url = await app.getUrl();
    logger.info({ url, storage: storage.description, role: options.role }, 'switchyard listening');
    return {
      app,
      url: url.replace('[::1]', '127.0.0.1'),
      storage,
      projections: host,
      logger,
      async close() {
        for (const cleanup of cleanups) await cleanup();
      },
    };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    throw error;
  }
}

async function announceBootstrapKey(
  app: NestFastifyApplication,
  config: SwitchyardConfig,
  announce: (line: string) => void,
  logger: Logger,
): Promise<void> {
  const keys = app.get(ApplicationKeyService);
  const outcome = await keys.ensureBootstrapAdminKey({
    account: config.account.login,
    accountId: config.account.id ?? undefined,
    adminKey: config.adminKey ?? undefined,
  });
  if (outcome.outcome === 'generated') {
    announce(
      `\nSwitchyard created an admin application key for account "${config.account.login}".\n` +
        `It is shown only this once; store it now:\n\n    ${outcome.secret}\n\n` +
        `Try: curl -H "Authorization: Bearer ${outcome.secret}" http://localhost:${config.port}/v1/application\n`,
    );
  } else {
    logger.info({ bootstrap: outcome.outcome }, 'admin key bootstrap');
  }
}
