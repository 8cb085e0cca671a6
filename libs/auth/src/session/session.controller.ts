import {
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Public } from '@switchyard/http';
import type { Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialResolver } from '../application/credential-resolver';
import { REFUSAL } from '../application/request-authorization';
import { Auth } from '../http/auth.decorator';
import { CurrentPrincipal } from '../http/current-principal.decorator';
import type { CredentialKind, Principal } from '../principal';
import { closedSessionCookie, openSessionCookie } from './session-cookie';
import { SignInBody } from './sign-in.body';

/** What the page shows of its session: never the credential itself. */
export interface SessionJson {
  kind: CredentialKind;
  name: string;
  accounts: string[];
}

const ANY_CREDENTIAL: readonly CredentialKind[] = ['admin_key', 'ci_key', 'service_token', 'host_token'];

/**
 * The dashboard's sign-in: a browser's EventSource cannot send an Authorization header, so the page
 * exchanges its credential once for an HttpOnly session cookie, which the guard then accepts as
 * that same credential (no more: every route still checks its kind and account). Not part of the
 * public API, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Controller('ui/session')
export class SessionController {
  constructor(
    private readonly resolver: CredentialResolver,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** 200 with the session; 403 for a credential the API would refuse, with no cookie set. */
  @Post()
  @Public()
  @HttpCode(200)
  async signIn(
    @Body() body: SignInBody,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionJson> {
    const credential = body.credential.trim();
    const principal = credential === '' ? null : await this.resolver.resolve(credential, this.clock.now());
    if (!principal) throw new ForbiddenException(REFUSAL.invalid);
    void reply.header('set-cookie', openSessionCookie(credential, request.protocol === 'https'));
    void reply.header('cache-control', 'no-store');
    return sessionJson(principal);
  }

  @Get()
  @Auth(ANY_CREDENTIAL)
  current(
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): SessionJson {
    void reply.header('cache-control', 'no-store');
    return sessionJson(principal);
  }

  /** 204 whether or not a session was open: signing out twice is no error. */
  @Delete()
  @Public()
  @HttpCode(204)
  signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): void {
    void reply.header('set-cookie', closedSessionCookie(request.protocol === 'https'));
  }
}

function sessionJson(principal: Principal): SessionJson {
  return { kind: principal.kind, name: principal.actor.name, accounts: principal.accounts };
}
