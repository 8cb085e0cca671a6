import { Module } from '@nestjs/common';
import { CODE_HOST, type CodeHost } from '@switchyard/code-host';
import { CodeHostModule } from '@switchyard/code-host/nest';
import { PullRequestSnapshots } from '@switchyard/code-host/pull-requests';
import type { Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { CodeHostConfigurationSource } from './application/code-host-configuration-source';
import { PullRequestSimulator } from './application/pull-request-simulator';
import { REPOSITORY_CONFIGURATION_SOURCE } from './application/repository-configuration-source';
import { PullRequestSimulatorController } from './http/pull-request-simulator.controller';
import { QueueConfigurationController } from './http/queue-configuration.controller';
import { SimulatorController } from './http/simulator.controller';

/**
 * `.mergify.yml` over HTTP: the three simulators and the legacy queue configuration. The file and
 * the pull requests come from the code host (CODE_HOST and its pull-request snapshots); the time
 * from the platform's CLOCK.
 */
@Module({
  imports: [CodeHostModule],
  controllers: [SimulatorController, PullRequestSimulatorController, QueueConfigurationController],
  providers: [
    {
      provide: REPOSITORY_CONFIGURATION_SOURCE,
      useFactory: (codeHost: CodeHost) => new CodeHostConfigurationSource(codeHost),
      inject: [CODE_HOST],
    },
    {
      provide: PullRequestSimulator,
      useFactory: (snapshots: PullRequestSnapshots, codeHost: CodeHost, clock: Clock) =>
        new PullRequestSimulator(snapshots, codeHost, clock),
      inject: [PullRequestSnapshots, CODE_HOST, CLOCK],
    },
  ],
})
export class ConfigModule {}
