import { Global, Inject, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Clock } from '@switchyard/kernel';
import { APP_CONFIG, CLOCK, SQL_EXECUTOR, type SwitchyardConfig } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { SandboxForge } from '../forge/sandbox-forge';
import { systemTimers, type Timers } from '../forge/timers';
import { SandboxAuthGuard } from './sandbox-auth.guard';
import { SandboxRequestTextGuard } from './sandbox-request-text.guard';
import { SandboxCheckController } from './sandbox-check.controller';
import { SandboxCheckRunPageController } from './sandbox-check-run-page.controller';
import { SandboxOrgController } from './sandbox-org.controller';
import { SandboxPullController } from './sandbox-pull.controller';
import { SandboxRepositoryController } from './sandbox-repository.controller';

/** Replaceable in tests, to drive the CI runs' and retries' timers. */
export const SANDBOX_TIMERS = Symbol('SANDBOX_TIMERS');

/** The origin the service listens on, read from its HTTP server once it listens. */
function listeningOrigin(adapterHost: HttpAdapterHost): string | null {
  const server = adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
  const address = server?.address() as AddressInfo | string | null | undefined;
  if (!address || typeof address === 'string') return null;
  const host = address.address === '::' || address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
}

/**
 * The sandbox forge at `/sandbox/github`: mounted only in sandbox mode (no GitHub App configured).
 * Its webhooks go to the service's own `/webhooks/github`. Global, so the webhook intake can find
 * the secret it signs with (`SandboxForge.webhookSecret`) without importing it in GitHub mode.
 */
@Global()
@Module({
  controllers: [
    SandboxRepositoryController,
    SandboxPullController,
    SandboxCheckController,
    SandboxCheckRunPageController,
    SandboxOrgController,
  ],
  providers: [
    { provide: SANDBOX_TIMERS, useValue: systemTimers },
    {
      provide: SandboxForge,
      useFactory: (
        executor: SqlExecutor,
        config: SwitchyardConfig,
        clock: Clock,
        timers: Timers,
        adapterHost: HttpAdapterHost,
      ) =>
        SandboxForge.open({
          executor,
          clock,
          timers,
          ciSeconds: config.sandboxCiSeconds,
          webhookSecret: config.github.webhookSecret,
          serviceOrigin: () => listeningOrigin(adapterHost),
          webhookUrl: config.sandboxWebhookUrl,
        }),
      inject: [SQL_EXECUTOR, APP_CONFIG, CLOCK, SANDBOX_TIMERS, HttpAdapterHost],
    },
    SandboxAuthGuard,
    SandboxRequestTextGuard,
  ],
  exports: [SandboxForge],
})
export class SandboxForgeModule implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(@Inject(SandboxForge) private readonly forge: SandboxForge) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.forge.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.forge.close();
  }
}
