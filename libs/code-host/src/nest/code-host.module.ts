import { Global, Module, type DynamicModule } from '@nestjs/common';
import { APP_CONFIG, SQL_EXECUTOR, type SwitchyardConfig } from '@switchyard/platform';
import type { SqlExecutor } from '@switchyard/sql';
import { CODE_HOST, type CodeHost } from '../port/code-host';
import { PullRequestSnapshots } from '../pull-requests/application/pull-request-snapshots';
import { RepositoryCoverage } from '../pull-requests/application/repository-coverage';

/**
 * The code host's queries for the features that act on pull requests: the pull-request snapshot
 * and repository-coverage read models. The app registers codeHostProjections and the pull-request
 * reader reactor, mounts `POST /webhooks/github` (GitHubWebhookModule) and in GitHub mode imports
 * RepositoryCoverageModule (404 for a repository no installation covers).
 */
@Module({
  providers: [
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
  exports: [PullRequestSnapshots, RepositoryCoverage],
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
