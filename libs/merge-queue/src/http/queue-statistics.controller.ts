import { Controller, Get, Inject } from '@nestjs/common';
import { ApiExtension, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { parseRfc3339, Query, type RepositoryRef, RepositoryRefParam } from '@switchyard/http';
import { unprocessable, type Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { HOUR_MS } from '../statistics/queue-statistics';
import { QueueStatisticsQueries } from '../statistics/queue-statistics.queries';
import {
  QUEUE_STATISTICS_SCHEMA,
  queueStatisticsJson,
  type QueueStatisticsJson,
} from '../statistics/statistics-json';
import { QueueStatisticsQuery } from './queue-statistics.query';

const DEFAULT_WINDOW_MS = 24 * HOUR_MS;
/** 92 days: a quarter, 2,208 hourly counts at most in one answer. */
const LONGEST_WINDOW_MS = 92 * 24 * HOUR_MS;

/** Switchyard's own: the queue's statistics over a window (not in Mergify's API). */
@ApiTags('Merge queue')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/merge-queue')
export class QueueStatisticsController {
  constructor(
    private readonly queries: QueueStatisticsQueries,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('statistics')
  @ApiOkResponse({ schema: QUEUE_STATISTICS_SCHEMA })
  @ApiExtension('x-switchyard-extension', {
    meaning:
      "Switchyard's own endpoint, not in Mergify's API: merged per hour, time to merge, CI runs per merge, dequeue reasons and batch outcomes over [since, until)",
    longest_window: '92 days',
  })
  async statistics(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() query: QueueStatisticsQuery,
  ): Promise<QueueStatisticsJson> {
    const until = query.until === undefined ? this.clock.now().getTime() : instant('until', query.until);
    const since = query.since === undefined ? until - DEFAULT_WINDOW_MS : instant('since', query.since);
    if (since >= until) throw unprocessable('since must be before until');
    if (until - since > LONGEST_WINDOW_MS)
      throw unprocessable('the window from since to until is longer than 92 days');
    const window = { since, until };
    return queueStatisticsJson(
      await this.queries.over(repository.key, query.branch, window),
      query.branch ?? null,
    );
  }
}

function instant(name: string, text: string): number {
  const parsed = parseRfc3339(text);
  if (!parsed.ok) throw unprocessable(`${name} must be an RFC 3339 date-time with an offset`);
  return parsed.value.date.getTime();
}
