import { Controller, Delete, Get, HttpCode, HttpStatus, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import {
  Body,
  Param,
  Query,
  type RepositoryRef,
  RepositoryRefParam,
  setLinkHeader,
  UuidPipe,
  ReadYourWrites,
} from '@switchyard/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QuarantinedTestJson } from '../application/quarantine-json';
import { DequarantineTestCommand } from '../application/dequarantine-test.handler';
import { QuarantineTestCommand } from '../application/quarantine-test.handler';
import { TestQuarantineQueries } from '../application/test-quarantine.queries';
import { CreateQuarantineBody } from './dto/create-quarantine.body';
import { QuarantineCheckBody } from './dto/quarantine-check.body';
import { QuarantineListParams, rowFiltersOf } from './dto/quarantine-list.query-params';
import { encodeQuarantineCursor, pageRequestOf } from './quarantine-cursor';

export interface QuarantineListJson {
  size: number;
  per_page: number | null;
  quarantined_tests: QuarantinedTestJson[];
  total: number;
}

/**
 * Test quarantines (spec "Test engine"). Who may call what (README "Who may call what on the test
 * engine"): the spec's rule, widened only where a step Mergify's CLI runs in CI needs it. The
 * listing is QUAR in the spec; the check is what `mergify ci junit-process` calls in CI
 * (client-contract §1.2), so a CI key works there too. Adding, reading one and removing are STD in
 * the spec, and no CI step of the CLI calls them (`tests quarantines add/remove` are run by
 * people): a CI key gets 403 there.
 */
@ApiTags('Test quarantines')
@Auth('QUAR')
@Controller('v1/ci/:owner/repositories/:repository/quarantines')
export class QuarantineController {
  constructor(
    private readonly commands: CommandBus,
    private readonly quarantines: TestQuarantineQueries,
  ) {}

  /** The whole list without per_page (what the CLI reads); pages with Link cursors with it. */
  @Get()
  async list(
    @RepositoryRefParam() repository: RepositoryRef,
    @Query() params: QuarantineListParams,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<QuarantineListJson> {
    const sort = params.sort ?? 'created_at';
    const direction = params.direction ?? 'asc';
    const perPage = params.per_page ?? null;
    const { quarantines, total, page } = await this.quarantines.list(repository.key, {
      filters: rowFiltersOf(params),
      health: { include: params.health_status, exclude: params.health_status_exclude },
      sort,
      direction,
      page: perPage === null ? undefined : pageRequestOf(params.cursor, perPage, sort, direction),
    });
    if (page) {
      setLinkHeader(reply, request, {
        next: page.next && encodeQuarantineCursor(sort, direction, { after: page.next }),
        prev: page.prev && encodeQuarantineCursor(sort, direction, { before: page.prev }),
      });
    }
    return { size: quarantines.length, per_page: perPage, quarantined_tests: quarantines, total };
  }

  /** 201 {id}; 409 when the test already has an active quarantine on that branch. */
  @ReadYourWrites()
  @Post()
  @Auth('STD')
  @HttpCode(HttpStatus.CREATED)
  async create(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: CreateQuarantineBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ id: string }> {
    const id = await this.commands.execute(
      new QuarantineTestCommand(
        repository.key,
        {
          testName: body.test_name,
          reason: body.reason,
          branch: body.branch ?? null,
          unquarantineWhenHealthy: body.unquarantine_when_healthy ?? false,
        },
        principal.actor,
      ),
    );
    return { id };
  }

  /** What `mergify ci junit-process` asks before uploading (client-contract §1.7). */
  @Post('check')
  @HttpCode(HttpStatus.OK)
  async check(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: QuarantineCheckBody,
  ): Promise<{ quarantined_tests_names: string[]; non_quarantined_tests_names: string[] }> {
    const split = await this.quarantines.check(repository.key, body.tests_names, body.branch ?? null);
    return { quarantined_tests_names: split.quarantined, non_quarantined_tests_names: split.notQuarantined };
  }

  @Get(':quarantine_id')
  @Auth('STD')
  find(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('quarantine_id', UuidPipe) quarantineId: string,
  ): Promise<QuarantinedTestJson> {
    return this.quarantines.find(repository.key, quarantineId);
  }

  /** 204; 404 when unknown or already lifted (the CLI prints "not quarantined"). */
  @ReadYourWrites()
  @Delete(':quarantine_id')
  @Auth('STD')
  @HttpCode(HttpStatus.NO_CONTENT)
  async delete(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('quarantine_id', UuidPipe) quarantineId: string,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(new DequarantineTestCommand(repository.key, quarantineId, principal.actor));
  }
}
