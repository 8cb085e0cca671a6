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
import { authorizeRequest, type AuthorizationDecision } from '../application/request-authorization';
import type { CredentialKind } from '../principal';
import { sessionAuthorization } from '../session/session-cookie';
import { ACCEPTED_CREDENTIALS } from './auth.decorator';
import type { AuthenticatedRequest } from './authenticated-request';

/** Detail for a route that declared nothing: a programming error, refused rather than left open. */
export const UNDECLARED_ROUTE_DETAIL = 'Forbidden';

type Handler = ReturnType<ExecutionContext['getHandler']>;
type ControllerClass = ReturnType<ExecutionContext['getClass']>;
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

  /** A boolean when the credential is cached (Nest then skips a promise), else a promise of one. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const access = this.routeAccess(context);
    if (access?.public) return true;
    if (!access) throw new ForbiddenException(UNDECLARED_ROUTE_DETAIL);

    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const params = (request.params ?? {}) as Record<string, unknown>;
    const decision = authorizeRequest({
      // The dashboard's session cookie stands for its credential when no header is sent.
      authorization: request.headers.authorization ?? sessionAuthorization(request.headers.cookie),
      accepted: access.accepted,
      owner: typeof params.owner === 'string' ? params.owner : undefined,
      resolver: this.resolver,
      now: this.clock.now(),
    });
    return decision instanceof Promise
      ? decision.then((decided) => admit(request, decided))
      : admit(request, decision);
  }

  /** Per handler, then per controller class (a handler may be inherited): decorators never change. */
  private readonly accessByRoute = new WeakMap<Handler, WeakMap<ControllerClass, RouteAccess>>();

  private routeAccess(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    const controller = context.getClass();
    let byController = this.accessByRoute.get(handler);
    if (!byController) this.accessByRoute.set(handler, (byController = new WeakMap()));
    const known = byController.get(controller);
    if (known !== undefined) return known;
    const access = this.declaredAccess(handler, controller);
    byController.set(controller, access);
    return access;
  }

  private declaredAccess(handler: Handler, controller: ControllerClass): RouteAccess {
    for (const target of [handler, controller]) {
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

/** Puts the principal on the request, or refuses it. */
function admit(request: AuthenticatedRequest, decision: AuthorizationDecision): true {
  if (!decision.allowed) throw new ForbiddenException(decision.detail);
  request.principal = decision.principal;
  return true;
}
