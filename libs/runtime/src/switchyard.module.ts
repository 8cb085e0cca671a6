import { Module, type DynamicModule } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { ActivityLogModule } from '@switchyard/activity-log';
import {
  AuthModule,
  FirstMatchTokenVerifier,
  GitHubTokenVerifier,
  StaticTokenVerifier,
} from '@switchyard/auth';
import type { CodeHost } from '@switchyard/code-host';
import { CodeHostClientModule, CodeHostModule } from '@switchyard/code-host/nest';
import { GitHubWebhookModule, RepositoryCoverageModule } from '@switchyard/github/nest';
import { ConfigModule } from '@switchyard/mergify-config';
import { HealthModule, READINESS_CONTRIBUTORS, type ReadinessContributor } from '@switchyard/http';
import { PlatformModule, type PlatformRuntime } from '@switchyard/platform';
import { RepositoryControlsModule, type MergeFence } from '@switchyard/repository-controls';
import { SandboxForgeModule } from '@switchyard/sandbox-forge';
import { TestEngineModule } from '@switchyard/test-engine';
import { QuarantineModule } from '@switchyard/test-engine/quarantine';
import { MergeQueueModule } from '@switchyard/merge-queue/http';
import { StatusModule } from '@switchyard/merge-queue/status';
import { DashboardModule } from './dashboard/dashboard.module';
import { ParkedEventsController } from './parked-events/parked-events.controller';
import { EngineLayout } from './runtime/engine-layout';

/** A repository's merges are performed by its partition of the engine's effects reactor. */
const mergeFenceOf = (layout: EngineLayout): MergeFence => ({
  processorsFor: (repository) => [layout.effectsOf(repository)],
});

/** Operators' endpoints over the processor runtime. */
@Module({ controllers: [ParkedEventsController] })
class OperationsModule {}

/** The HTTP surface: every documented /v1 endpoint plus health, over the shared platform. */
@Module({})
export class SwitchyardModule {
  static forRoot(
    runtime: PlatformRuntime,
    readiness: ReadinessContributor[],
    codeHost: CodeHost,
  ): DynamicModule {
    return {
      module: SwitchyardModule,
      imports: [
        PlatformModule.forRoot(runtime),
        // The process's one code host, which its processors share.
        CodeHostClientModule.forRoot(codeHost),
        CqrsModule.forRoot(),
        HealthModule.forRoot({ contributors: { provide: READINESS_CONTRIBUTORS, useValue: readiness } }),
        // GitHub mode: code-host tokens are GitHub's (checked with GitHub), after the configured table.
        AuthModule.forRoot(
          runtime.config.github.mode === 'github'
            ? {
                tokenVerifier: {
                  useFactory: () =>
                    new FirstMatchTokenVerifier([
                      new StaticTokenVerifier(runtime.config.hostTokens),
                      new GitHubTokenVerifier({ apiUrl: runtime.config.github.apiUrl ?? '' }),
                    ]),
                },
              }
            : {},
        ),
        // The sandbox forge stands in for GitHub only when no GitHub App is configured.
        ...(runtime.config.github.mode === 'sandbox' ? [SandboxForgeModule] : []),
        // GitHub mode: 404 for repositories no installation covers (sandbox mode covers them all).
        ...(runtime.config.github.mode === 'github' ? [RepositoryCoverageModule] : []),
        RepositoryControlsModule.forRoot({ mergeFence: mergeFenceOf(EngineLayout.of(runtime.config)) }),
        ActivityLogModule,
        CodeHostModule,
        GitHubWebhookModule,
        ConfigModule,
        TestEngineModule,
        QuarantineModule,
        MergeQueueModule,
        StatusModule,
        OperationsModule,
        DashboardModule,
      ],
    };
  }
}
