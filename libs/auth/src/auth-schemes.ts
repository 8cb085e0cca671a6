import type { SecuritySchemeName } from '@switchyard/http';
import type { CredentialKind } from './principal';

/**
 * The spec's scheme sets (Endpoints): STD for queue, freeze, log and test routes; APP for
 * GET /application; QUAR for quarantine listing. A CI key is outside STD, so it gets 403 on queue and
 * freeze management, as the CLI's smoke tests expect.
 */
export const AUTH_SCHEME_SETS = {
  STD: ['admin_key', 'service_token', 'host_token'],
  APP: ['admin_key', 'ci_key'],
  QUAR: ['admin_key', 'ci_key', 'service_token', 'host_token'],
} as const satisfies Record<string, readonly CredentialKind[]>;

export type AuthSchemeSetName = keyof typeof AUTH_SCHEME_SETS;

export const SECURITY_SCHEME_FOR_KIND: Readonly<Record<CredentialKind, SecuritySchemeName>> = {
  admin_key: 'AdminApplicationKey',
  ci_key: 'CIApplicationKey',
  service_token: 'ServiceTokenBearerAuth',
  host_token: 'HostTokenBearerAuth',
};

/** A named set, or an explicit list for the odd route (e.g. `['ci_key']` for pull scopes). */
export const acceptedKinds = (
  accepted: AuthSchemeSetName | readonly CredentialKind[],
): readonly CredentialKind[] => (typeof accepted === 'string' ? AUTH_SCHEME_SETS[accepted] : accepted);
