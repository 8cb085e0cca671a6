import { Body, Param, Query } from '@switchyard/http';
import { Delete, Get, HttpCode, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ForgeTransaction } from '../forge/forge-transaction';
import { SandboxForge } from '../forge/sandbox-forge';
import * as pulls from '../forge/pulls';
import type { SandboxRequest } from './sandbox-auth.guard';
import { sandboxPage } from './sandbox-page';
import { numberParam, objectBody, runFor, SandboxController } from './sandbox-route';

/** Pull requests, reviews and review requests, and the issue side: comments and labels. */
@SandboxController()
export class SandboxPullController {
  constructor(private readonly forge: SandboxForge) {}

  private run<T>(request: SandboxRequest, operation: (tx: ForgeTransaction) => Promise<T>): Promise<T> {
    return runFor(this.forge, request, operation);
  }

  @Post('repos/:owner/:repo/pulls')
  create(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) => pulls.createPull(tx, owner, repo, objectBody(body)));
  }

  @Get('repos/:owner/:repo/pulls')
  list(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Query() query: Record<string, string>,
  ) {
    return this.run(request, (tx) => pulls.listPulls(tx, owner, repo, query));
  }

  @Get('repos/:owner/:repo/pulls/:number')
  get(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.getPull(tx, owner, repo, numberParam(number)));
  }

  @Patch('repos/:owner/:repo/pulls/:number')
  update(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.updatePull(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Put('repos/:owner/:repo/pulls/:number/merge')
  merge(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) => pulls.mergePull(tx, owner, repo, numberParam(number), objectBody(body)));
  }

  @Put('repos/:owner/:repo/pulls/:number/update-branch')
  @HttpCode(202)
  updateBranch(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.updatePullBranch(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Get('repos/:owner/:repo/pulls/:number/files')
  files(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.pullFiles(tx, owner, repo, numberParam(number)));
  }

  @Get('repos/:owner/:repo/pulls/:number/commits')
  commits(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.pullCommits(tx, owner, repo, numberParam(number)));
  }

  @Get('repos/:owner/:repo/pulls/:number/reviews')
  reviews(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.listReviews(tx, owner, repo, numberParam(number)));
  }

  @Post('repos/:owner/:repo/pulls/:number/reviews')
  @HttpCode(200)
  review(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.createReview(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Get('repos/:owner/:repo/pulls/:number/requested_reviewers')
  requested(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.requestedReviewers(tx, owner, repo, numberParam(number)));
  }

  @Post('repos/:owner/:repo/pulls/:number/requested_reviewers')
  request(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.requestReviewers(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Delete('repos/:owner/:repo/pulls/:number/requested_reviewers')
  unrequest(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.removeRequestedReviewers(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Get('repos/:owner/:repo/issues/:number/comments')
  async comments(
    @Req() request: SandboxRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Query() query: Record<string, string>,
  ) {
    const all = await this.run(request, (tx) => pulls.listComments(tx, owner, repo, numberParam(number)));
    return sandboxPage(all, request, reply, query);
  }

  @Get('repos/:owner/:repo/issues/comments/:id')
  getComment(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
  ) {
    return this.run(request, (tx) => pulls.getComment(tx, owner, repo, numberParam(id)));
  }

  @Patch('repos/:owner/:repo/issues/comments/:id')
  updateComment(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('id') id: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) => pulls.updateComment(tx, owner, repo, numberParam(id), objectBody(body)));
  }

  @Post('repos/:owner/:repo/issues/:number/comments')
  comment(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.createComment(tx, owner, repo, numberParam(number), objectBody(body)),
    );
  }

  @Get('repos/:owner/:repo/issues/:number/labels')
  labels(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
  ) {
    return this.run(request, (tx) => pulls.listLabels(tx, owner, repo, numberParam(number)));
  }

  @Post('repos/:owner/:repo/issues/:number/labels')
  @HttpCode(200)
  addLabels(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.addLabels(
        tx,
        owner,
        repo,
        numberParam(number),
        Array.isArray(body) ? body : objectBody(body),
        false,
      ),
    );
  }

  @Put('repos/:owner/:repo/issues/:number/labels')
  setLabels(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Body() body: unknown,
  ) {
    return this.run(request, (tx) =>
      pulls.addLabels(
        tx,
        owner,
        repo,
        numberParam(number),
        Array.isArray(body) ? body : objectBody(body),
        true,
      ),
    );
  }

  @Delete('repos/:owner/:repo/issues/:number/labels/:name')
  removeLabel(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('number') number: string,
    @Param('name') name: string,
  ) {
    return this.run(request, (tx) =>
      pulls.removeLabel(tx, owner, repo, numberParam(number), decodeURIComponent(name)),
    );
  }
}
