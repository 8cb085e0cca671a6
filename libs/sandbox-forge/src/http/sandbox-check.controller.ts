import { Body, Param, Query } from '@switchyard/http';
import { Get, Patch, Post, Req } from '@nestjs/common';
import * as checks from '../forge/checks';
import type { ForgeTransaction } from '../forge/forge-transaction';
import { SandboxForge } from '../forge/sandbox-forge';
import type { SandboxRequest } from './sandbox-auth.guard';
import { numberParam, objectBody, runFor, SandboxController } from './sandbox-route';

/** Check runs and commit statuses. */
@SandboxController()
export class SandboxCheckController {
  constructor(private readonly forge: SandboxForge) {}

  private run<T>(request: SandboxRequest, operation: (tx: ForgeTransaction) => Promise<T>): Promise<T> {
    return runFor(this.forge, request, operation);
  }

  @Post('repos/:owner/:repo/check-runs')
  create(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) => checks.createCheckRun(tx, owner, repo, objectBody(body)));
  }

  @Get('repos/:owner/:repo/check-runs/:id')
  get(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ) {
    return this.run(request, (tx) => checks.getCheckRun(tx, owner, repo, numberParam(id)));
  }

  @Patch('repos/:owner/:repo/check-runs/:id')
  update(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      checks.updateCheckRun(tx, owner, repo, numberParam(id), objectBody(body)),
    );
  }

  @Get('repos/:owner/:repo/commits/:ref/check-runs')
  forRef(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('ref') ref: string,
    @Query() query: Record<string, string>,
  ) {
    return this.run(request, (tx) => checks.listCheckRuns(tx, owner, repo, decodeURIComponent(ref), query));
  }

  @Post('repos/:owner/:repo/statuses/:sha')
  status(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) => checks.createStatus(tx, owner, repo, sha, objectBody(body)));
  }

  @Get('repos/:owner/:repo/commits/:ref/statuses')
  statuses(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('ref') ref: string,
  ) {
    return this.run(request, (tx) => checks.listStatuses(tx, owner, repo, decodeURIComponent(ref)));
  }

  @Get('repos/:owner/:repo/commits/:ref/status')
  combined(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('ref') ref: string,
  ) {
    return this.run(request, (tx) => checks.combinedStatus(tx, owner, repo, decodeURIComponent(ref)));
  }
}
