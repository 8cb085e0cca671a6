import { Controller, Delete, Get, HttpCode, HttpStatus, Patch, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import {
  Body,
  issueAt,
  issueShapes,
  Param,
  type RepositoryRef,
  RepositoryRefParam,
  RequestValidationException,
  UuidPipe,
  ReadYourWrites,
} from '@switchyard/http';
import type { FastifyRequest } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { CancelFreezeCommand } from '../application/cancel-freeze.handler';
import { ChangeFreezeCommand } from '../application/change-freeze.handler';
import { ScheduleFreezeCommand } from '../application/schedule-freeze.handler';
import { ScheduledFreezeQueries } from '../application/scheduled-freeze.queries';
import { DeleteReasonRequiredError } from '../domain/freeze/scheduled-freeze';
import type { ScheduledFreezeJson } from '../json/scheduled-freeze.json';
import { ChangeFreezeBody, freezeChangesOf } from './dto/change-freeze.body';
import { CreateFreezeBody } from './dto/create-freeze.body';
import { DeleteFreezeBody } from './dto/delete-freeze.body';

/** Scheduled freezes (spec "Scheduled freeze"). */
@ApiTags('Scheduled freeze')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/scheduled_freeze')
export class ScheduledFreezeController {
  constructor(
    private readonly commands: CommandBus,
    private readonly freezes: ScheduledFreezeQueries,
  ) {}

  /** Ongoing and scheduled freezes, in start order. */
  @Get()
  async list(
    @RepositoryRefParam() repository: RepositoryRef,
  ): Promise<{ scheduled_freezes: ScheduledFreezeJson[] }> {
    return { scheduled_freezes: await this.freezes.list(repository.key) };
  }

  @ReadYourWrites()
  @Post()
  @HttpCode(HttpStatus.CREATED)
  create(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: CreateFreezeBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ScheduledFreezeJson> {
    return this.commands.execute(
      new ScheduleFreezeCommand(
        repository.key,
        {
          reason: body.reason,
          start: body.start,
          end: body.end ?? null,
          timezone: body.timezone,
          matchingConditions: body.matching_conditions ?? [],
          excludeConditions: body.exclude_conditions ?? [],
        },
        principal.actor,
      ),
    );
  }

  /** Only the keys sent change; 400 when the start of a begun freeze would move. */
  @ReadYourWrites()
  @Patch(':freeze_id')
  update(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('freeze_id', UuidPipe) freezeId: string,
    @Body() body: ChangeFreezeBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ScheduledFreezeJson> {
    return this.commands.execute(
      new ChangeFreezeCommand(repository.key, freezeId, freezeChangesOf(body), principal.actor),
    );
  }

  @ReadYourWrites()
  @Post(':freeze_id/delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  delete(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('freeze_id', UuidPipe) freezeId: string,
    @Body() body: DeleteFreezeBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    return this.cancel(repository, freezeId, body, principal, request);
  }

  @ReadYourWrites()
  @Delete(':freeze_id')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    deprecated: true,
    description: 'Deprecated: use POST scheduled_freeze/{freeze_id}/delete.',
  })
  deprecatedDelete(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('freeze_id', UuidPipe) freezeId: string,
    @Body() body: DeleteFreezeBody,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    return this.cancel(repository, freezeId, body, principal, request);
  }

  private async cancel(
    repository: RepositoryRef,
    freezeId: string,
    body: DeleteFreezeBody,
    principal: Principal,
    request: FastifyRequest,
  ): Promise<void> {
    try {
      await this.commands.execute(
        new CancelFreezeCommand(repository.key, freezeId, body.delete_reason ?? null, principal.actor),
      );
    } catch (error) {
      // A freeze in force needs a reason: answer as FastAPI does for a missing required field (E10).
      if (error instanceof DeleteReasonRequiredError) {
        throw new RequestValidationException([
          issueAt(['body', error.field], request.body ?? {}, issueShapes.missing()),
        ]);
      }
      throw error;
    }
  }
}
