import type { TokenVerifier } from '../host-token/token-verifier';
import type { CredentialRecord } from '../projection/credential-record';
import type { Principal } from '../principal';
import { hashSecret, isSwitchyardSecret } from '../secrets/secrets';

export interface CredentialLookup {
  findBySecretHash(secretHash: string): Promise<CredentialRecord | null>;
  /** A cache's answer without waiting, when it has one (CachedCredentialLookup). */
  peek?(secretHash: string): CredentialRecord | undefined;
}

/**
 * Bearer credential -> Principal, or null when it is unknown, revoked or expired. Our own
 * credentials are found by digest; anything else is asked of the code host. A `sy_`/`syt_` secret
 * we do not know is never sent to the code host.
 *
 * A credential the lookup holds in memory is answered at once, not through a promise: it is what
 * almost every request finds, and the guard then decides without leaving the call.
 */
export class CredentialResolver {
  constructor(
    private readonly credentials: CredentialLookup,
    private readonly hostTokens: TokenVerifier,
  ) {}

  resolve(bearer: string, now: Date): Principal | null | Promise<Principal | null> {
    const secretHash = hashSecret(bearer);
    const cached = this.credentials.peek?.(secretHash);
    return cached ? principalOf(cached, now) : this.read(bearer, secretHash, now);
  }

  private async read(bearer: string, secretHash: string, now: Date): Promise<Principal | null> {
    const record = await this.credentials.findBySecretHash(secretHash);
    if (record) return principalOf(record, now);
    if (isSwitchyardSecret(bearer)) return null;
    const identity = await this.hostTokens.verify(bearer);
    if (!identity) return null;
    return {
      kind: 'host_token',
      actor: { type: 'user', id: identity.user.id, name: identity.user.login },
      accounts: [...identity.accounts],
    };
  }
}

const principalOf = (record: CredentialRecord, now: Date): Principal | null =>
  usable(record, now) ? principalFor(record) : null;

const usable = (record: CredentialRecord, now: Date): boolean =>
  !record.revoked && (record.expiresAt === null || record.expiresAt.getTime() > now.getTime());

function principalFor(record: CredentialRecord): Principal {
  const actor = { type: 'application' as const, id: record.id, name: record.name };
  if (record.kind === 'service_token')
    return { kind: 'service_token', actor, accounts: [record.account.login] };
  const scope = record.scope ?? 'ci';
  return {
    kind: scope === 'admin' ? 'admin_key' : 'ci_key',
    actor,
    accounts: [record.account.login],
    application: { id: record.id, name: record.name, scope, account: { ...record.account } },
  };
}
