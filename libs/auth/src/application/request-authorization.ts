import type { CredentialKind, Principal } from '../principal';
import type { CredentialResolver } from './credential-resolver';

export type AuthorizationDecision =
  { allowed: true; principal: Principal } | { allowed: false; detail: string };

export const REFUSAL = {
  missing: 'Authentication required: send Authorization: Bearer <application key or token>',
  invalid: 'Invalid, revoked or expired credential',
  kind: (kind: CredentialKind) => `This endpoint does not accept ${KIND_LABEL[kind]}`,
  account: (owner: string) => `This credential has no access to the account '${owner}'`,
} as const;

const KIND_LABEL: Record<CredentialKind, string> = {
  admin_key: 'admin application keys',
  ci_key: 'CI application keys',
  service_token: 'service tokens',
  host_token: 'code-host tokens',
};

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export const bearerCredential = (authorization: string | string[] | undefined): string | null => {
  const header = Array.isArray(authorization) ? authorization[0] : authorization;
  return header ? (BEARER.exec(header)?.[1] ?? null) : null;
};

/**
 * The whole authorization rule for one request: a valid credential, of a kind the route accepts,
 * and, when the route names an `owner`, one of the principal's accounts (case-insensitive). Every
 * refusal is a 403 (client-contract §2.1: no 401 anywhere). Decided at once when the resolver
 * answers at once (a cached credential), else once it has.
 */
export function authorizeRequest(input: {
  authorization: string | string[] | undefined;
  accepted: readonly CredentialKind[];
  owner: string | undefined;
  resolver: CredentialResolver;
  now: Date;
}): AuthorizationDecision | Promise<AuthorizationDecision> {
  const bearer = bearerCredential(input.authorization);
  if (!bearer) return { allowed: false, detail: REFUSAL.missing };
  const principal = input.resolver.resolve(bearer, input.now);
  return principal instanceof Promise
    ? principal.then((resolved) => decide(resolved, input))
    : decide(principal, input);
}

function decide(
  principal: Principal | null,
  input: { accepted: readonly CredentialKind[]; owner: string | undefined },
): AuthorizationDecision {
  if (!principal) return { allowed: false, detail: REFUSAL.invalid };
  if (!input.accepted.includes(principal.kind))
    return { allowed: false, detail: REFUSAL.kind(principal.kind) };
  if (input.owner !== undefined) {
    const owner = input.owner.toLowerCase();
    if (!principal.accounts.some((account) => account.toLowerCase() === owner)) {
      return { allowed: false, detail: REFUSAL.account(input.owner) };
    }
  }
  return { allowed: true, principal };
}
