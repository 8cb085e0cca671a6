import {
  ForbiddenException,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { PUBLIC_ROUTE } from '@switchyard/http';
import type { Clock } from '@switchyard/kernel';
import { CLOCK } from '@switchyard/platform';
import { CredentialResolver } from '../application/credential-resolver';
import { authorizeRequest } from '../application/request-authorization';
import type { CredentialKind } from '../principal';
import { ACCEPTED_CREDENTIALS } from './auth.decorator';
import type { AuthenticatedRequest } from './authenticated-request';

/** Detail for a route that declared nothing: a programming error, refused rather than left open. */
export const UNDECLARED_ROUTE_DETAIL = 'Forbidden';

type RouteAccess = { public: true } | { public: false; accepted: readonly CredentialKind[] } | null;

/**
 * The global guard (AuthModule installs it as APP_GUARD). Fails closed: a route must be @Public()
 * or declare @Auth(...). The handler's own declaration wins over its controller's. Every refusal
 * is a 403 `{"detail": …}` without retry headers (the error filter strips them).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolver: CredentialResolver,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.routeAccess(context);
    if (access?.public) return true;
    if (!access) throw new ForbiddenException(UNDECLARED_ROUTE_DETAIL);

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const params = (request.params ?? {}) as Record<string, unknown>;
    const decision = await authorizeRequest({
      authorization: request.headers.authorization,
      accepted: access.accepted,
      owner: typeof params.owner === 'string' ? params.owner : undefined,
      resolver: this.resolver,
      now: this.clock.now(),
    });
    if (!decision.allowed) throw new ForbiddenException(decision.detail);
    request.principal = decision.principal;
    return true;
  }

  private routeAccess(context: ExecutionContext): RouteAccess {
    for (const target of [context.getHandler(), context.getClass()]) {
      const accepted = this.reflector.get<readonly CredentialKind[] | undefined>(
        ACCEPTED_CREDENTIALS,
        target,
      );
      if (accepted) return { public: false, accepted };
      if (this.reflector.get<boolean | undefined>(PUBLIC_ROUTE, target)) return { public: true };
    }
    return null;
  }
}
