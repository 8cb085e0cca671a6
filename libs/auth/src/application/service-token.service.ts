import { newId, unprocessable } from '@switchyard/kernel';
import { readYourWrite } from '@switchyard/projection';
import { serviceTokenDecider } from '../domain/service-token/service-token.decider';
import { serviceTokenStreamId } from '../domain/service-token/service-token.stream';
import { CredentialReadModel } from '../projection/credential-read-model';
import { generateServiceTokenSecret, hashSecret } from '../secrets/secrets';
import { accountFrom } from './account-input';
import type { AuthServiceDeps } from './auth-service-deps';
import { CREDENTIAL_READ_MODELS } from './credential-read-models';
import { toSummary, type CredentialSummary, type IssuedCredential } from './credential-summary';

export interface IssueServiceTokenInput {
  accountLogin: string;
  accountId?: number | null;
  name?: string;
  /** Lifetime in days; omitted means until revoked. */
  ttlDays?: number | null;
}

const DAY_MS = 86_400_000;
const MAX_TTL_DAYS = 36_500;

/** Issuing, revoking and listing service tokens; framework-free. */
export class ServiceTokenService {
  private readonly credentials: CredentialReadModel;

  constructor(private readonly deps: AuthServiceDeps) {
    this.credentials = new CredentialReadModel(deps.sql);
  }

  async issueServiceToken(
    input: IssueServiceTokenInput,
  ): Promise<IssuedCredential & { expiresAt: Date | null }> {
    const ttl = input.ttlDays ?? null;
    if (ttl !== null && (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_TTL_DAYS)) {
      throw unprocessable(`The token lifetime must be a whole number of days between 1 and ${MAX_TTL_DAYS}`);
    }
    const id = newId();
    const secret = generateServiceTokenSecret();
    const at = this.deps.clock.now();
    const expiresAt = ttl === null ? null : new Date(at.getTime() + ttl * DAY_MS);
    await readYourWrite(this.deps.freshness, CREDENTIAL_READ_MODELS, () =>
      this.deps.commands.handle(serviceTokenStreamId(id), serviceTokenDecider, {
        type: 'IssueServiceToken',
        tokenId: id,
        name: input.name ?? `${input.accountLogin} service token`,
        account: accountFrom(input.accountLogin, input.accountId),
        secretHash: hashSecret(secret),
        at,
        expiresAt,
      }),
    );
    return { id, secret, expiresAt };
  }

  /** Resolves `revoked: false` when the token was already revoked (revoking is idempotent). */
  async revokeServiceToken(id: string): Promise<{ revoked: boolean }> {
    const tokenId = id.toLowerCase();
    const result = await readYourWrite(this.deps.freshness, CREDENTIAL_READ_MODELS, () =>
      this.deps.commands.handle(serviceTokenStreamId(tokenId), serviceTokenDecider, {
        type: 'RevokeServiceToken',
        tokenId,
        at: this.deps.clock.now(),
      }),
    );
    return { revoked: result.events.length > 0 };
  }

  async listServiceTokens(): Promise<CredentialSummary[]> {
    await this.deps.freshness.waitFor(CREDENTIAL_READ_MODELS, await this.deps.store.headPosition());
    const now = this.deps.clock.now();
    return (await this.credentials.list('service_token')).map((record) => toSummary(record, now));
  }
}
