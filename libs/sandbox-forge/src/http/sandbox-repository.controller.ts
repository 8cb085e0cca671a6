import { Body, Param, Query } from '@switchyard/http';
import { Delete, Get, HttpCode, Patch, Post, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { SandboxForge } from '../forge/sandbox-forge';
import * as git from '../forge/repository';
import type { SandboxRequest } from './sandbox-auth.guard';
import { objectBody, runFor, SandboxController } from './sandbox-route';

/** Repositories, branches, refs, commits, contents, comparisons and merges. */
@SandboxController()
export class SandboxRepositoryController {
  constructor(private readonly forge: SandboxForge) {}

  @Get('repos/:owner/:repo')
  repository(@Req() request: SandboxRequest, @Param('owner') owner: string, @Param('repo') repo: string) {
    return runFor(this.forge, request, (tx) => git.getRepository(tx, owner, repo));
  }

  @Get('repos/:owner/:repo/branches')
  branches(@Req() request: SandboxRequest, @Param('owner') owner: string, @Param('repo') repo: string) {
    return runFor(this.forge, request, (tx) => git.listBranches(tx, owner, repo));
  }

  @Get('repos/:owner/:repo/branches/*')
  branch(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') branch: string,
  ) {
    return runFor(this.forge, request, (tx) => git.getBranch(tx, owner, repo, branch));
  }

  @Get('repos/:owner/:repo/git/ref/*')
  ref(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') ref: string,
  ) {
    return runFor(this.forge, request, (tx) => git.getRef(tx, owner, repo, ref));
  }

  @Get('repos/:owner/:repo/git/matching-refs/*')
  matchingRefs(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') ref: string,
  ) {
    return runFor(this.forge, request, (tx) => git.matchingRefs(tx, owner, repo, ref));
  }

  @Post('repos/:owner/:repo/git/refs')
  createRef(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: unknown,
  ) {
    return runFor(this.forge, request, (tx) => git.createRef(tx, owner, repo, objectBody(body)));
  }

  @Patch('repos/:owner/:repo/git/refs/*')
  updateRef(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') ref: string,
    @Body() body: unknown,
  ) {
    return runFor(this.forge, request, (tx) => git.updateRef(tx, owner, repo, ref, objectBody(body)));
  }

  @Delete('repos/:owner/:repo/git/refs/*')
  @HttpCode(204)
  async deleteRef(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') ref: string,
  ) {
    await runFor(this.forge, request, (tx) => git.deleteRef(tx, owner, repo, ref));
  }

  @Get('repos/:owner/:repo/git/commits/:sha')
  gitCommit(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('sha') sha: string,
  ) {
    return runFor(this.forge, request, (tx) => git.getGitCommit(tx, owner, repo, sha));
  }

  @Get('repos/:owner/:repo/commits/:ref')
  commit(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('ref') ref: string,
  ) {
    return runFor(this.forge, request, (tx) => git.getCommit(tx, owner, repo, ref));
  }

  @Get('repos/:owner/:repo/contents/*')
  contents(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') path: string,
    @Query('ref') ref?: string,
  ) {
    return runFor(this.forge, request, (tx) =>
      git.getContents(tx, owner, repo, decodeURIComponent(path), ref),
    );
  }

  @Put('repos/:owner/:repo/contents/*')
  async putContents(
    @Req() request: SandboxRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') path: string,
    @Body() body: unknown,
  ) {
    const fields = objectBody(body);
    const answer = await runFor(this.forge, request, (tx) =>
      git.putContents(tx, owner, repo, decodeURIComponent(path), fields),
    );
    void reply.status(fields.sha === undefined ? 201 : 200);
    return answer;
  }

  @Get('repos/:owner/:repo/compare/*')
  compare(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('*') basehead: string,
  ) {
    return runFor(this.forge, request, (tx) => git.compare(tx, owner, repo, decodeURIComponent(basehead)));
  }

  @Post('repos/:owner/:repo/merges')
  async merge(
    @Req() request: SandboxRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Body() body: unknown,
  ) {
    const answer = await runFor(this.forge, request, (tx) =>
      git.mergeIntoBranch(tx, owner, repo, objectBody(body)),
    );
    void reply.status(answer.status);
    return answer.body;
  }
}
