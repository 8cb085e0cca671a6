import { Controller, HttpCode, HttpStatus, Inject, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import type { CommandService } from '@switchyard/event-store/application';
import { Body, Param, PullNumberPipe, type RepositoryRef, RepositoryRefParam } from '@switchyard/http';
import type { Clock } from '@switchyard/kernel';
import { CLOCK, COMMAND_SERVICE } from '@switchyard/platform';
import { pullRequestScopesDecider, pullRequestScopesStreamId } from '../domain/scopes/pull-request-scopes';
import { ScopesBody } from './scopes.body';

/** Spec "Merge queue": the scopes CI computed for a pull request (CI key only). */
@ApiTags('Merge queue')
@Auth(['ci_key'])
@Controller('v1/repos/:owner/:repository/pulls/:number/scopes')
export class PullRequestScopesController {
  constructor(
    @Inject(COMMAND_SERVICE) private readonly commands: CommandService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 204, no body; duplicate scopes are one scope. */
  @Put()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Scopes recorded' })
  async put(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
    @Body() body: ScopesBody,
  ): Promise<void> {
    await this.commands.handle(
      pullRequestScopesStreamId(repository.key, Number(number)),
      pullRequestScopesDecider,
      {
        repository: repository.key,
        pullRequest: Number(number),
        scopes: body.scopes,
        allScopes: body.all_scopes ?? false,
        at: this.clock.now().toISOString(),
      },
    );
  }

  /** Deprecated: the same as PUT. `mergify ci scopes-send` still calls this one. */
  @Post()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Scopes recorded' })
  post(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
    @Body() body: ScopesBody,
  ): Promise<void> {
    return this.put(repository, number, body);
  }
}
