import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { readIdentityHealthOnDefaultBranch } from '../queries/current-health';
import { READ_TEST_HEALTH } from './application/test-health.port';
import { ConfigureAutoQuarantineHandler } from './application/configure-auto-quarantine.handler';
import { DequarantineTestHandler } from './application/dequarantine-test.handler';
import { QuarantineTestHandler } from './application/quarantine-test.handler';
import { TestQuarantineQueries } from './application/test-quarantine.queries';
import { AutoQuarantineController } from './http/auto-quarantine.controller';
import { LegacyQuarantineCheckController } from './http/legacy-quarantine-check.controller';
import { QuarantineController } from './http/quarantine.controller';

/**
 * Test quarantines end to end: list, add, remove, the CLI's check, and the auto-quarantine switch.
 * Needs the platform tokens (COMMAND_SERVICE, READ_MODEL_FRESHNESS, SQL_EXECUTOR, CLOCK) and the
 * auth guard from the app; the app registers testQuarantineProjection with the projection runner,
 * quarantineLogMapping with the activity log, and the recovery reactor with the processors.
 */
@Module({
  imports: [CqrsModule],
  controllers: [QuarantineController, AutoQuarantineController, LegacyQuarantineCheckController],
  providers: [
    TestQuarantineQueries,
    QuarantineTestHandler,
    DequarantineTestHandler,
    ConfigureAutoQuarantineHandler,
    { provide: READ_TEST_HEALTH, useValue: readIdentityHealthOnDefaultBranch },
  ],
})
export class QuarantineModule {}
