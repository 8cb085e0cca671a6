import { Controller, Get, Header, HttpCode, HttpStatus, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExtension, ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import {
  Param,
  parseRfc3339,
  PullNumberPipe,
  Query,
  type RepositoryRef,
  RepositoryRefParam,
  ReadYourWrites,
} from '@switchyard/http';
import { notFound, unprocessable, type Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { RequestDequeueCommand } from '../../application/request-dequeue.handler';
import type { DequeueImpact } from '../dequeue-impact';
import type { PullRequestDetailJson } from '../detail-json';
import { PullRequestNotQueuedError, QueueNotFoundError, QueueStatusService } from '../queue-status.service';
import { QueueAtQuery, QueueStatusQuery } from './status.query';

/** Spec "Merge queue": branches, live status, pull-request detail, dequeue impact and dequeue. */
@ApiTags('Merge queue')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/merge-queue')
export class MergeQueueStatusController {
  constructor(
    private readonly status: QueueStatusService,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('branches')
  async branches(@RepositoryRefParam() repository: RepositoryRef): Promise<{ branches: string[] }> {
    return { branches: await this.status.branches(repository.key) };
  }

  /** Sent as the service's JSON text: a live answer of 500 pull requests is serialized once, not per request. */
  @Get('status')
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiExtension('x-switchyard-at', {
    parameter: 'at',
    meaning: 'the queue as it was at that instant',
    merge_conditions: 'not judged for a past instant: no batch reads waiting_schedule',
  })
  statusOf(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() query: QueueStatusQuery,
  ): Promise<string> {
    return answer(() =>
      this.status.statusText(repository.key, {
        ...(query.branch === undefined ? {} : { branch: query.branch }),
        at: this.instant(query.at),
      }),
    );
  }

  @Get('pull/:number')
  @ApiExtension('x-switchyard-at', {
    parameter: 'at',
    meaning: 'the pull request as it was at that instant',
    // Judging reads the snapshots and configuration as they are now, which keep no history.
    merge_conditions: 'not judged for a past instant: mergeability_check.conditions_evaluation is null',
  })
  pull(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
    @Query() query: QueueAtQuery,
  ): Promise<PullRequestDetailJson> {
    return answer(() => this.status.pullRequest(repository.key, Number(number), this.instant(query.at)));
  }

  @Get('pull/:number/dequeue-impact')
  impact(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
  ): Promise<DequeueImpact> {
    return answer(() => this.status.dequeueImpact(repository.key, Number(number)));
  }

  /** 204; the pull request and its queued stack successors leave the queue. */
  @ReadYourWrites()
  @Post('pull/:number/dequeue')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Dequeued' })
  dequeue(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
  ): Promise<void> {
    return answer(() => this.commands.execute(new RequestDequeueCommand(repository.key, Number(number))));
  }

  private instant(at: string | undefined): Date | null {
    if (at === undefined) return null;
    const parsed = parseRfc3339(at);
    if (!parsed.ok) throw unprocessable('at must be an RFC 3339 date-time with an offset');
    if (parsed.value.date.getTime() > this.clock.now().getTime()) throw unprocessable('at is in the future');
    return parsed.value.date;
  }
}

/** The refusals of the status queries and the dequeue as the spec's 404 `{"detail"}`. */
export async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PullRequestNotQueuedError || error instanceof QueueNotFoundError)
      throw notFound(error.message);
    throw error;
  }
}
