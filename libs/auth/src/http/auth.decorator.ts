import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiForbiddenResponse, ApiSecurity } from '@nestjs/swagger';
import { acceptedKinds, SECURITY_SCHEME_FOR_KIND, type AuthSchemeSetName } from '../auth-schemes';
import type { CredentialKind } from '../principal';

export const ACCEPTED_CREDENTIALS = 'switchyard:accepted-credentials';

/**
 * Declares which credentials a route (or every route of a controller) accepts: `@Auth('STD')`,
 * `@Auth('APP')`, `@Auth('QUAR')`, or an explicit list such as `@Auth(['ci_key'])`. Routes with
 * neither @Auth nor @Public are refused by the guard. Also documents the schemes in OpenAPI (one
 * requirement per scheme: any one of them is enough).
 */
export const Auth = (
  accepted: AuthSchemeSetName | readonly CredentialKind[],
): MethodDecorator & ClassDecorator => {
  const kinds = acceptedKinds(accepted);
  return applyDecorators(
    SetMetadata(ACCEPTED_CREDENTIALS, kinds),
    ...kinds.map((kind) => ApiSecurity(SECURITY_SCHEME_FOR_KIND[kind])),
    ApiForbiddenResponse({
      description: 'Missing, unknown, revoked or expired credential, or not permitted here',
    }),
  );
};
