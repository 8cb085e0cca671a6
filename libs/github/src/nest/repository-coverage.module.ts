import { Inject, Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import { CodeHostModule } from '@switchyard/code-host/nest';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import { APP_CONFIG, COMMAND_SERVICE, EVENT_STORE, type SwitchyardConfig } from '@switchyard/platform';
import { GitHubCodeHost } from '../adapter/github-code-host';
import { InstallationReconciliation } from '../webhooks/application/installation-reconciliation';
import { RepositoryCoverageInterceptor } from './repository-coverage.interceptor';

/**
 * GitHub mode only: 404 for a repository no installation covers (RepositoryCoverageInterceptor).
 * Imported only in that mode because any global interceptor puts every request of the app through
 * Nest's interceptor pipeline (RxJS), which cost more than the rest of a cheap GET; in sandbox mode
 * every repository is covered, so there it would check nothing.
 *
 * At start-up it also lists the App's installations and records what the installation webhooks
 * did not (InstallationReconciliation), in the background: start-up and readiness do not wait for
 * GitHub, and a failed listing is logged, not fatal (the webhooks still cover repositories).
 */
@Module({
  imports: [CodeHostModule],
  providers: [{ provide: APP_INTERCEPTOR, useClass: RepositoryCoverageInterceptor }],
})
export class RepositoryCoverageModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('InstallationListing');

  constructor(
    @Inject(APP_CONFIG) private readonly config: SwitchyardConfig,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(CODE_HOST) private readonly codeHost: CodeHost,
  ) {}

  onApplicationBootstrap(): void {
    const { github } = this.config;
    if (github.mode !== 'github') return;
    // The process's own client: the listing counts against the same installation budget.
    const lister = this.codeHost instanceof GitHubCodeHost ? this.codeHost.installationLister() : null;
    if (!lister) return;
    new InstallationReconciliation(this.store, this.commands, lister, {
      info: (message) => this.logger.log(message),
    })
      .reconcile()
      .catch((error: unknown) =>
        this.logger.warn(
          `Listing the GitHub App's installations failed; coverage follows the installation webhooks only: ${
            error instanceof Error ? error.message : String(error)
          }`,
        ),
      );
  }
}
