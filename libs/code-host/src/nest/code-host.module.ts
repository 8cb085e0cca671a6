import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import type { EventStore } from '@switchyard/event-store';
import type { CommandService } from '@switchyard/event-store/application';
import {
  APP_CONFIG,
  COMMAND_SERVICE,
  EVENT_STORE,
  SQL_EXECUTOR,
  type SwitchyardConfig,
} from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import { GitHubCodeHost } from '../github/github-code-host';
import { InstallationReconciliation } from '../pull-requests/application/installation-reconciliation';
import { CODE_HOST, type CodeHost } from '../port/code-host';
import { PullRequestSnapshots } from '../pull-requests/application/pull-request-snapshots';
import { RepositoryCoverage } from '../pull-requests/application/repository-coverage';
import { GitHubWebhookIntake } from '../webhooks/application/github-webhook-intake';
import { WEBHOOK_SECRET_SOURCE, type WebhookSecretSource } from '../webhooks/application/webhook-secret';
import { sandboxWebhookSecret } from '../sandbox/webhooks/webhook-signature';
import { GitHubWebhookController } from '../webhooks/http/github-webhook.controller';
import { RepositoryCoverageInterceptor } from './repository-coverage.interceptor';

/**
 * The code host in the HTTP app: `POST /webhooks/github` (always mounted), the CodeHost port for
 * the features that act on pull requests, and the pull-request snapshot and repository-coverage
 * queries. The app registers codeHostProjections and the pull-request reader reactor, and in GitHub
 * mode imports RepositoryCoverageModule (404 for a repository no installation covers).
 */
@Module({
  controllers: [GitHubWebhookController],
  providers: [
    {
      provide: WEBHOOK_SECRET_SOURCE,
      useFactory: (config: SwitchyardConfig, sql: SqlExecutor): WebhookSecretSource => {
        // Sandbox mode without a configured secret: the one the forge generated and keeps in SQL.
        let sandboxSecret: Promise<string> | null = null;
        return {
          secret: async () =>
            config.github.mode === 'github'
              ? config.github.webhookSecret
              : (sandboxSecret ??= sandboxWebhookSecret(sql, config.github.webhookSecret).catch(
                  (error: unknown) => {
                    sandboxSecret = null;
                    throw error;
                  },
                )),
        };
      },
      inject: [APP_CONFIG, SQL_EXECUTOR],
    },
    {
      provide: GitHubWebhookIntake,
      useFactory: (commands: CommandService, secrets: WebhookSecretSource) =>
        new GitHubWebhookIntake(commands, secrets),
      inject: [COMMAND_SERVICE, WEBHOOK_SECRET_SOURCE],
    },
    {
      provide: PullRequestSnapshots,
      useFactory: (sql: SqlExecutor) => new PullRequestSnapshots(sql),
      inject: [SQL_EXECUTOR],
    },
    {
      provide: RepositoryCoverage,
      useFactory: (sql: SqlExecutor, config: SwitchyardConfig) =>
        new RepositoryCoverage(sql, config.github.mode),
      inject: [SQL_EXECUTOR, APP_CONFIG],
    },
  ],
  exports: [PullRequestSnapshots, RepositoryCoverage, WEBHOOK_SECRET_SOURCE],
})
export class CodeHostModule {}

/**
 * CODE_HOST for every module of the app: the process's one code host (openRuntime makes it, and
 * the processors share it), so one installation has one client and one throttle per process.
 */
@Global()
@Module({})
export class CodeHostClientModule {
  static forRoot(codeHost: CodeHost): DynamicModule {
    return {
      module: CodeHostClientModule,
      providers: [{ provide: CODE_HOST, useValue: codeHost }],
      exports: [CODE_HOST],
    };
  }
}

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
