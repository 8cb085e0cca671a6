import { Controller, Delete, Get, HttpCode, HttpStatus, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, type Principal } from '@switchyard/auth';
import { Body, type RepositoryRef, RepositoryRefParam, ReadYourWrites } from '@switchyard/http';
import { CommandBus } from '@nestjs/cqrs';
import { MergeQueuePauseQueries } from '../application/merge-queue-pause.queries';
import { PauseMergeQueueCommand } from '../application/pause-merge-queue.handler';
import { UnpauseMergeQueueCommand } from '../application/unpause-merge-queue.handler';
import { legacyQueuePauseJson, type QueuePauseJson } from '../json/merge-queue-pause.json';
import { PauseBody } from './dto/pause.body';

/**
 * The deprecated queue/pause endpoints (spec "Legacy queues"). They share the merge-queue pause:
 * pausing here pauses there, and the same log events are recorded.
 */
@ApiTags('Legacy queues')
@Auth('STD')
@Controller('v1/repos/:owner/:repository/queue/pause')
export class LegacyQueuePauseController {
  constructor(
    private readonly commands: CommandBus,
    private readonly pauses: MergeQueuePauseQueries,
  ) {}

  @ReadYourWrites()
  @Put()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ deprecated: true })
  async pause(
    @RepositoryRefParam() repository: RepositoryRef,
    @Body() body: PauseBody,
    @CurrentPrincipal() principal: Principal,
  ): Promise<{ queue_pause: QueuePauseJson[] }> {
    return legacyQueuePauseJson(
      await this.commands.execute(new PauseMergeQueueCommand(repository.key, body.reason, principal.actor)),
    );
  }

  @ReadYourWrites()
  @Delete()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ deprecated: true })
  async unpause(
    @RepositoryRefParam() repository: RepositoryRef,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(new UnpauseMergeQueueCommand(repository.key, principal.actor));
  }

  /** The alternative form of the DELETE, for clients that cannot send one. */
  @ReadYourWrites()
  @Post('delete')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ deprecated: true })
  async unpauseByPost(
    @RepositoryRefParam() repository: RepositoryRef,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    await this.commands.execute(new UnpauseMergeQueueCommand(repository.key, principal.actor));
  }

  @Get()
  @ApiOperation({ deprecated: true })
  async get(@RepositoryRefParam() repository: RepositoryRef): Promise<{ queue_pause: QueuePauseJson[] }> {
    return legacyQueuePauseJson(await this.pauses.current(repository.key));
  }
}
