import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { parseRfc3339, Query, type RepositoryRef, RepositoryRefParam } from '@switchyard/http';
import { unprocessable, type Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { QueueStatusService } from '../queue-status.service';
import { QueueBranchesWindowQuery } from './status.query';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Spec "Legacy queues" (deprecated): GET queues and GET queues/branches. */
@ApiTags('Legacy queues')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/queues')
export class LegacyQueuesController {
  constructor(
    private readonly status: QueueStatusService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  async queues(@RepositoryRefParam() repository: RepositoryRef) {
    return { queues: await this.status.legacyQueues(repository.key) };
  }

  /** Base branches with queue activity between start_at (default: a day before end_at) and end_at (default: now). */
  @Get('branches')
  async branches(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() query: QueueBranchesWindowQuery,
  ): Promise<{ base_refs: string[] }> {
    const end = query.end_at === undefined ? this.clock.now() : instant(query.end_at);
    const start = query.start_at === undefined ? new Date(end.getTime() - DAY_MS) : instant(query.start_at);
    if (start.getTime() > end.getTime()) throw unprocessable('start_at must not be after end_at');
    return { base_refs: await this.status.branchesActiveBetween(repository.key, start, end) };
  }
}

const instant = (value: string): Date => {
  const parsed = parseRfc3339(value);
  if (!parsed.ok) throw unprocessable('expected an RFC 3339 date-time with an offset');
  return parsed.value.date;
};
