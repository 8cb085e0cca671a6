import { Body, Param } from '@switchyard/http';
import { Delete, Get, HttpCode, Post, Put, Req } from '@nestjs/common';
import type { ForgeTransaction } from '../forge/forge-transaction';
import * as org from '../forge/org';
import { SandboxForge } from '../forge/sandbox-forge';
import type { SandboxRequest } from './sandbox-auth.guard';
import { numberParam, objectBody, runFor, SandboxController } from './sandbox-route';

/** Teams and members, the App and its installation, the authenticated user, permissions. */
@SandboxController()
export class SandboxOrgController {
  constructor(private readonly forge: SandboxForge) {}

  private run<T>(request: SandboxRequest, operation: (tx: ForgeTransaction) => Promise<T>): Promise<T> {
    return runFor(this.forge, request, operation);
  }

  @Post('orgs/:org/teams')
  createTeam(@Req() request: SandboxRequest, @Param('org') name: string, @Body() body: unknown) {
    return this.run(request, (tx) => org.createTeam(tx, name, objectBody(body)));
  }

  @Get('orgs/:org/teams')
  teams(@Req() request: SandboxRequest, @Param('org') name: string) {
    return this.run(request, (tx) => org.listTeams(tx, name));
  }

  @Get('orgs/:org/teams/:slug')
  team(@Req() request: SandboxRequest, @Param('org') name: string, @Param('slug') slug: string) {
    return this.run(request, (tx) => org.getTeam(tx, name, slug));
  }

  @Get('orgs/:org/teams/:slug/members')
  members(@Req() request: SandboxRequest, @Param('org') name: string, @Param('slug') slug: string) {
    return this.run(request, (tx) => org.listTeamMembers(tx, name, slug));
  }

  @Get('orgs/:org/teams/:slug/memberships/:username')
  membership(
    @Req() request: SandboxRequest,
    @Param('org') name: string,
    @Param('slug') slug: string,
    @Param('username') user: string,
  ) {
    return this.run(request, (tx) => org.getTeamMembership(tx, name, slug, user));
  }

  @Put('orgs/:org/teams/:slug/memberships/:username')
  addMembership(
    @Req() request: SandboxRequest,
    @Param('org') name: string,
    @Param('slug') slug: string,
    @Param('username') user: string,
  ) {
    return this.run(request, (tx) => org.addTeamMembership(tx, name, slug, user));
  }

  @Delete('orgs/:org/teams/:slug/memberships/:username')
  @HttpCode(204)
  async removeMembership(
    @Req() request: SandboxRequest,
    @Param('org') name: string,
    @Param('slug') slug: string,
    @Param('username') user: string,
  ) {
    await this.run(request, (tx) => org.removeTeamMembership(tx, name, slug, user));
  }

  @Get('orgs/:org/installation')
  orgInstallation(@Req() request: SandboxRequest, @Param('org') name: string) {
    return this.run(request, (tx) => org.ownerInstallation(tx, name));
  }

  @Get('app')
  app(@Req() request: SandboxRequest) {
    return this.run(request, (tx) => org.getApp(tx));
  }

  @Get('app/installations')
  installations(@Req() request: SandboxRequest) {
    return this.run(request, (tx) => org.listInstallations(tx));
  }

  @Post('app/installations/:id/access_tokens')
  accessToken(@Req() request: SandboxRequest, @Param('id') id: string) {
    return this.run(request, (tx) => org.createInstallationToken(tx, numberParam(id)));
  }

  @Get('repos/:owner/:repo/installation')
  repositoryInstallation(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
  ) {
    return this.run(request, (tx) => org.repositoryInstallation(tx, owner, repo));
  }

  @Get('installation/repositories')
  installationRepositories(@Req() request: SandboxRequest) {
    return this.run(request, (tx) => org.installationRepositories(tx));
  }

  @Get('user')
  user(@Req() request: SandboxRequest) {
    return this.run(request, (tx) => org.authenticatedUser(tx));
  }

  @Get('user/installations')
  userInstallations(@Req() request: SandboxRequest) {
    return this.run(request, (tx) => org.userInstallations(tx));
  }

  @Put('repos/:owner/:repo/collaborators/:username')
  @HttpCode(204)
  async addCollaborator(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('username') user: string,
    @Body() body: unknown,
  ) {
    await this.run(request, (tx) => org.addCollaborator(tx, owner, repo, user, objectBody(body)));
  }

  @Get('repos/:owner/:repo/collaborators/:username/permission')
  permission(
    @Req() request: SandboxRequest,
    @Param('owner') owner: string,
    @Param('repo') repo: string,
    @Param('username') user: string,
  ) {
    return this.run(request, (tx) => org.collaboratorPermission(tx, owner, repo, user));
  }
}
