import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal } from '../principal';
import type { AuthenticatedRequest } from './authenticated-request';

/** `handler(@CurrentPrincipal() principal: Principal)` on an @Auth route. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal => {
    const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
    // Only reachable on a @Public route: a wiring mistake, so a 500 rather than an anonymous caller.
    if (!principal)
      throw new Error('@CurrentPrincipal() used on a route the auth guard did not authenticate');
    return principal;
  },
);
