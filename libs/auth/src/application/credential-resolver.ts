import type { TokenVerifier } from '../host-token/token-verifier';
import type { CredentialRecord } from '../projection/credential-record';
import type { Principal } from '../principal';
import { hashSecret, isSwitchyardSecret } from '../secrets/secrets';

export interface CredentialLookup {
  findBySecretHash(secretHash: string): Promise<CredentialRecord | null>;
}

/**
 * Bearer credential -> Principal, or null when it is unknown, revoked or expired. Our own
 * credentials are found by digest; anything else is asked of the code host. A `sy_`/`syt_` secret
 * we do not know is never sent to the code host.
 */
export class CredentialResolver {
  constructor(
    private readonly credentials: CredentialLookup,
    private readonly hostTokens: TokenVerifier,
  ) {}

  async resolve(bearer: string, now: Date): Promise<Principal | null> {
    const record = await this.credentials.findBySecretHash(hashSecret(bearer));
    if (record) return usable(record, now) ? principalFor(record) : null;
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
