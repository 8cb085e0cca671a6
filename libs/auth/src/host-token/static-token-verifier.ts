import type { HostTokenGrant } from '@switchyard/platform';
import { hashSecret } from '../secrets/secrets';
import type { HostIdentity, TokenVerifier } from './token-verifier';

/**
 * Host tokens from configuration (SwitchyardConfig.hostTokens, token -> grant): for the sandbox
 * forge, demos and tests, where no GitHub is reachable. Kept by digest so the table in memory never holds a usable token
 * and the lookup time does not depend on how much of a guess matches.
 */
export class StaticTokenVerifier implements TokenVerifier {
  private readonly byDigest: Map<string, HostIdentity>;

  constructor(grants: Readonly<Record<string, HostTokenGrant>>) {
    this.byDigest = new Map(
      Object.entries(grants).map(([token, grant]) => [
        hashSecret(token),
        { user: { ...grant.user }, accounts: [...grant.accounts] },
      ]),
    );
  }

  async verify(token: string): Promise<HostIdentity | null> {
    const identity = this.byDigest.get(hashSecret(token));
    return identity ? { user: { ...identity.user }, accounts: [...identity.accounts] } : null;
  }
}
