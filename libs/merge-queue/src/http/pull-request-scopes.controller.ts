import { Controller, HttpCode, HttpStatus, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { Auth } from '@switchyard/auth';
import {
  Body,
  Param,
  PullNumberPipe,
  type RepositoryRef,
  RepositoryRefParam,
  ReadYourWrites,
} from '@switchyard/http';
import { ReportPullRequestScopesCommand } from '../application/report-pull-request-scopes.handler';
import { ScopesBody } from './scopes.body';

/** Spec "Merge queue": the scopes CI computed for a pull request (CI key only). */
@ApiTags('Merge queue')
@Auth(['ci_key'])
@Controller('v1/repos/:owner/:repository/pulls/:number/scopes')
export class PullRequestScopesController {
  constructor(private readonly commands: CommandBus) {}

  /** 204, no body; duplicate scopes are one scope. The status API shows them from the answer on. */
  @ReadYourWrites()
  @Put()
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiNoContentResponse({ description: 'Scopes recorded' })
  async put(
    @RepositoryRefParam() repository: RepositoryRef,
    @Param('number', PullNumberPipe) number: bigint,
    @Body() body: ScopesBody,
  ): Promise<void> {
    await this.commands.execute(
      new ReportPullRequestScopesCommand(
        repository.key,
        Number(number),
        body.scopes,
        body.all_scopes ?? false,
      ),
    );
  }

  /** Deprecated: the same as PUT. `mergify ci scopes-send` still calls this one. */
  @ReadYourWrites()
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
