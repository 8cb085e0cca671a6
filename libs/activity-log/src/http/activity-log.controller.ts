import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import { Query, type RepositoryRef, RepositoryRefParam, setLinkHeader } from '@switchyard/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ActivityLogQueries } from '../application/activity-log-queries';
import type { LogAggregate } from '../query/aggregate-logs';
import type { LogEventView } from '../query/log-event-view';
import {
  ActivityLogFilterParams,
  ActivityLogPageParams,
  DEFAULT_PER_PAGE,
  toLogQueryParameters,
} from './activity-log.query-params';
import { LOG_PAGE_SCHEMA } from './log-event.openapi';
import { decodeLogCursor, encodeLogCursor } from './log-cursor';

export interface LogPageJson {
  size: number;
  per_page: number;
  events: LogEventView[];
}

/** The activity log (spec "Activity log"): newest first, keyset pages, and aggregate counts. */
@ApiTags('Activity log')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/logs')
export class ActivityLogController {
  constructor(private readonly logs: ActivityLogQueries) {}

  /** One page; the Link header holds absolute next/prev URLs repeating the caller's query. */
  @Get()
  @ApiOkResponse({ schema: LOG_PAGE_SCHEMA })
  async list(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() params: ActivityLogPageParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LogPageJson> {
    const perPage = params.per_page ?? DEFAULT_PER_PAGE;
    const cursor = params.cursor === undefined ? undefined : decodeLogCursor(params.cursor);
    const filters = toLogQueryParameters(params);
    if (cursor) {
      // A window left to its defaults stays the one the first page used.
      filters.received_from ??= cursor.window.from;
      filters.received_to ??= cursor.window.to;
    }
    const { query, page } = await this.logs.page(repository.key, filters, perPage, cursor?.start);
    setLinkHeader(reply, request, {
      next: page.next && encodeLogCursor({ start: page.next, window: query.window }),
      prev: page.prev && encodeLogCursor({ start: page.prev, window: query.window }),
    });
    return { size: page.events.length, per_page: perPage, events: page.events };
  }

  @Get('aggregate')
  aggregate(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() params: ActivityLogFilterParams,
  ): Promise<LogAggregate> {
    return this.logs.aggregate(repository.key, toLogQueryParameters(params));
  }
}
