import { Controller, Delete, Get, HttpCode, HttpStatus, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import { Body, type RepositoryRef, RepositoryRefParam, ReadYourWrites } from '@switchyard/http';
import { CommandBus } from '@nestjs/cqrs';
import { MergeQueuePauseQueries } from '../application/merge-queue-pause.queries';
import { PauseMergeQueueCommand } from '../application/pause-merge-queue.handler';
import { UnpauseMergeQueueCommand } from '../application/unpause-merge-queue.handler';
import { type MergeQueuePauseJson, mergeQueuePauseJson } from '../json/merge-queue-pause.json';
import { PauseBody } from './dto/pause.body';

/** The repository-wide merge-queue pause (spec "Merge queue"). */
@ApiTags('Merge queue')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/merge-queue/pause')
export class MergeQueuePauseController {
  constructor(
    private readonly commands: CommandBus,
    private readonly pauses: MergeQueuePauseQueries,
  ) {}

  /** Pauses the queue, or changes the reason of the running pause (paused_at stays). */
  @ReadYourWrites()
  @Put()
  @HttpCode(HttpStatus.OK)
  async pause(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: PauseBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<MergeQueuePauseJson> {
    return mergeQueuePauseJson(
      await this.commands.execute(new PauseMergeQueueCommand(repository.key, body.reason, principal.actor)),
    );
  }

  /** 204; 404 "The merge queue is not paused" when it is not. */
  @ReadYourWrites()
  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  async unpause(
    @RepositoryRefParam() repository: RepositoryRef,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(new UnpauseMergeQueueCommand(repository.key, principal.actor));
  }

  @Get()
  async get(@RepositoryRefParam() repository: RepositoryRef): Promise<MergeQueuePauseJson> {
    return mergeQueuePauseJson(await this.pauses.current(repository.key));
  }
}
