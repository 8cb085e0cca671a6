import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { NestFactory } from '@nestjs/core';
import { ApplicationKeyService } from '@switchyard/auth';
import { recordForgeOrigin } from '@switchyard/sandbox-forge';
import { systemClock, type Clock } from '@switchyard/kernel';
import { configureHttpApp, createHttpAdapter, PinoNestLogger } from '@switchyard/http';
import type { Storage, SwitchyardConfig } from '@switchyard/platform';
import type { ProcessorHost } from '@switchyard/projection';
import type { MergeQueueEngine } from '@switchyard/merge-queue/engine';
import { SANDBOX_PATH, WEBHOOK_PATH } from '@switchyard/sandbox-forge';
import type { Logger } from 'pino';
import { serveDashboard } from '../dashboard/dashboard-pages';
import { openRuntime } from '../runtime/open-runtime';
import { SwitchyardModule } from '../switchyard.module';
import { SWITCHYARD_VERSION } from '../version';

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
  /** The in-process merge-queue engine (all-in-one only): its code-host telemetry. */
  mergeQueue: MergeQueueEngine | null;
  logger: Logger;
  close(): Promise<void>;
}

/**
 * Starts an HTTP process. The all-in-one runs the projections itself and answers read-your-writes
 * from them; the api of a multi-service deployment reads checkpoints that the projector moves,
 * woken by Redis (when configured) or PostgreSQL NOTIFY.
 */
export async function startHttpApp(config: SwitchyardConfig, options: StartOptions): Promise<RunningHttpApp> {
  const clock = options.clock ?? systemClock;
  const runtime = await openRuntime(config, { role: options.role, logger: options.logger });
  const { logger, storage, freshness } = runtime;
  const cleanups: Array<() => Promise<void>> = [() => runtime.close()];
  try {
    if (!freshness) throw new Error(`The ${options.role} role has no read-your-writes source`);
    if (!runtime.codeHost) throw new Error(`The ${options.role} role has no code host`);
    const app = await NestFactory.create<NestFastifyApplication>(
      SwitchyardModule.forRoot({ config, storage, freshness, clock }, runtime.readiness, runtime.codeHost),
      createHttpAdapter(config, logger),
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
    cleanups.unshift(() => app.close());
    // The sandbox forge's API and webhook deliveries: the service talking to itself, at debug.
    configureHttpApp(app, {
      version: SWITCHYARD_VERSION,
      quietRequestPrefixes: [SANDBOX_PATH, WEBHOOK_PATH],
    });
    await serveDashboard(app);
    // No enableShutdownHooks: each app's main stops on SIGINT and SIGTERM (stopOnSignals), and
    // close() runs Nest's shutdown hooks. Nest's own handler would kill the process with the
    // signal once done, before the lines saying so were written.

    // The key exists before the port opens; the banner comes last, once everything else is said.
    const bootstrap = await ensureBootstrapKey(app, config);
    await app.listen({ port: config.port, host: config.host });
    const url = await app.getUrl();
    runtime.serviceOrigin.set(url.replace('[::1]', '127.0.0.1'));
    // Where the deployment's engine and projector find the sandbox forge this process serves.
    if (config.github.mode === 'sandbox' && !config.github.apiUrl)
      await recordForgeOrigin(storage.executor, config.advertisedUrl ?? runtime.serviceOrigin.get()!);
    logger.info({ url, storage: storage.description, role: options.role }, 'switchyard listening');
    announceBootstrapKey(
      bootstrap,
      config,
      options.announce ?? ((line) => process.stdout.write(`${line}\n`)),
      logger,
    );
    return {
      app,
      url: url.replace('[::1]', '127.0.0.1'),
      storage,
      projections: runtime.processors,
      mergeQueue: runtime.mergeQueue,
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

async function ensureBootstrapKey(app: NestFastifyApplication, config: SwitchyardConfig) {
  return app.get(ApplicationKeyService).ensureBootstrapAdminKey({
    account: config.account.login,
    accountId: config.account.id ?? undefined,
    adminKey: config.adminKey ?? undefined,
  });
}

function announceBootstrapKey(
  outcome: Awaited<ReturnType<typeof ensureBootstrapKey>>,
  config: SwitchyardConfig,
  announce: (line: string) => void,
  logger: Logger,
): void {
  if (outcome.outcome === 'generated') {
    // Log lines wait in a batch for up to 0.1 s: written first, they cannot land after the banner.
    logger.flush();
    announce(
      `\nSwitchyard created an admin application key for account "${config.account.login}".\n` +
        `It is shown only this once; store it now:\n\n    ${outcome.secret}\n\n` +
        `Try: curl -H "Authorization: Bearer ${outcome.secret}" http://localhost:${config.port}/v1/application\n`,
    );
  } else {
    logger.info({ bootstrap: outcome.outcome }, 'admin key bootstrap');
  }
}
