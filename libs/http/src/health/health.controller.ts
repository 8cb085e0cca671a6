import { Controller, Get, HttpStatus, Inject, Optional, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { EventStore } from '@switchyard/event-store';
import type { SqlExecutor } from '@switchyard/sql';
import { EVENT_STORE, SQL_EXECUTOR } from '@switchyard/platform';
import type { FastifyReply } from 'fastify';
import { Public } from '../access/public.decorator';
import { READINESS_CONTRIBUTORS, runReadinessChecks, type ReadinessContributor } from './readiness';
import { RefusedInputs } from './refused-inputs';
import { eventStoreReadiness, readModelDatabaseReadiness } from './storage-readiness';

/**
 * Probes for orchestrators, outside /v1 and the OpenAPI document. Liveness says only that the
 * process serves HTTP (restarting it would not fix a database outage); readiness says whether it
 * can serve requests right now.
 */
@Public()
@ApiExcludeController()
@Controller()
export class HealthController {
  private readonly contributors: ReadinessContributor[];

  constructor(
    @Inject(SQL_EXECUTOR) sql: SqlExecutor,
    @Inject(EVENT_STORE) store: EventStore,
    @Optional() @Inject(READINESS_CONTRIBUTORS) extra: ReadinessContributor[] | null,
    @Inject(RefusedInputs) refused: RefusedInputs,
  ) {
    this.contributors = [
      readModelDatabaseReadiness(sql),
      eventStoreReadiness(store),
      ...(extra ?? []),
      refused.readiness(),
    ];
  }

  @Get('healthz')
  liveness(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readiness(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const report = await runReadinessChecks(this.contributors);
    if (report.ready) return { status: 'ok', checks: report.checks };
    const failures = report.checks
      .filter((check) => !check.ok)
      .map((check) => `${check.name}: ${check.error}`);
    void reply.status(HttpStatus.SERVICE_UNAVAILABLE);
    return { detail: `Not ready: ${failures.join('; ')}`, checks: report.checks };
  }
}
