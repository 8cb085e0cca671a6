import { readYourWrite } from '@switchyard/projection';
import { conflict, DomainError, newId, unprocessable } from '@switchyard/kernel';
import { applicationKeyDecider } from '../domain/application-key/application-key.decider';
import type { ApplicationKeyScope } from '../domain/application-key/application-key.events';
import { applicationKeyStreamId } from '../domain/application-key/application-key.stream';
import { CredentialReadModel } from '../projection/credential-read-model';
import { deriveBootstrapKeyId, GENERATED_BOOTSTRAP_KEY_ID } from '../secrets/bootstrap-key-id';
import { generateApplicationKeySecret, hashSecret } from '../secrets/secrets';
import { accountFrom } from './account-input';
import type { AuthServiceDeps } from './auth-service-deps';
import { CREDENTIAL_READ_MODELS } from './credential-read-models';
import { toSummary, type CredentialSummary, type IssuedCredential } from './credential-summary';

export interface CreateApplicationKeyInput {
  accountLogin: string;
  /** Defaults to a stable id derived from the login. */
  accountId?: number | null;
  scope: ApplicationKeyScope;
  name?: string;
}

export interface BootstrapAdminKeyInput {
  /** SwitchyardConfig.account.login */
  account: string;
  accountId?: number | null;
  /** SWITCHYARD_ADMIN_KEY, when the operator supplies the secret. */
  adminKey?: string | null;
}

export type BootstrapOutcome =
  /** The table was empty: a new admin key; print the secret once. */
  | { outcome: 'generated'; keyId: string; secret: string }
  /** SWITCHYARD_ADMIN_KEY became a key now, or already was one. */
  | { outcome: 'configured_key_created' | 'configured_key_present'; keyId: string }
  /** SWITCHYARD_ADMIN_KEY names a key an admin revoked; it stays revoked. */
  | { outcome: 'configured_key_revoked'; keyId: string }
  | { outcome: 'keys_exist' }
  /** The projection has not caught up, so emptiness cannot be judged; nothing was created. */
  | { outcome: 'read_model_behind' };

export const ADMIN_KEY_MIN_LENGTH = 16;

/** Creating, revoking and listing application keys; framework-free (the CLI uses it directly). */
export class ApplicationKeyService {
  private readonly credentials: CredentialReadModel;

  constructor(private readonly deps: AuthServiceDeps) {
    this.credentials = new CredentialReadModel(deps.sql);
  }

  async createApplicationKey(input: CreateApplicationKeyInput): Promise<IssuedCredential> {
    const secret = generateApplicationKeySecret(input.scope);
    const id = newId();
    await this.create(id, secret, {
      scope: input.scope,
      name: input.name ?? `${input.accountLogin} ${input.scope} key`,
      account: accountFrom(input.accountLogin, input.accountId),
    });
    return { id, secret };
  }

  /** Resolves `revoked: false` when the key was already revoked (revoking is idempotent). */
  async revokeApplicationKey(id: string): Promise<{ revoked: boolean }> {
    const keyId = id.toLowerCase();
    const result = await readYourWrite(this.deps.freshness, CREDENTIAL_READ_MODELS, () =>
      this.deps.commands.handle(applicationKeyStreamId(keyId), applicationKeyDecider, {
        type: 'RevokeApplicationKey',
        keyId,
        at: this.deps.clock.now(),
      }),
    );
    return { revoked: result.events.length > 0 };
  }

  async listApplicationKeys(): Promise<CredentialSummary[]> {
    await this.catchUp();
    const now = this.deps.clock.now();
    return (await this.credentials.list('application_key')).map((record) => toSummary(record, now));
  }

  /**
   * Start-up: make sure someone can administer this instance. With SWITCHYARD_ADMIN_KEY, that
   * secret becomes an admin key unless it already is one (its id is derived from it, so restarts
   * and replicas agree); nothing secret is returned. Without it, an empty credential table gets one
   * generated admin key whose secret is returned for the app to print once.
   */
  async ensureBootstrapAdminKey(input: BootstrapAdminKeyInput): Promise<BootstrapOutcome> {
    const account = accountFrom(input.account, input.accountId);
    if (input.adminKey) return this.ensureConfiguredKey(input.adminKey, account);

    if (!(await this.catchUp())) return { outcome: 'read_model_behind' };
    if (await this.credentials.hasAnyApplicationKey()) return { outcome: 'keys_exist' };
    const secret = generateApplicationKeySecret('admin');
    try {
      const created = await this.create(GENERATED_BOOTSTRAP_KEY_ID, secret, {
        scope: 'admin',
        name: 'bootstrap admin key',
        account,
      });
      if (!created) return { outcome: 'keys_exist' };
    } catch (error) {
      // Another replica generated it first (same well-known id, different secret).
      if (error instanceof DomainError && error.kind === 'conflict') return { outcome: 'keys_exist' };
      throw error;
    }
    return { outcome: 'generated', keyId: GENERATED_BOOTSTRAP_KEY_ID, secret };
  }

  private async ensureConfiguredKey(
    adminKey: string,
    account: { id: number; login: string },
  ): Promise<BootstrapOutcome> {
    if (adminKey.length < ADMIN_KEY_MIN_LENGTH) {
      throw unprocessable(`SWITCHYARD_ADMIN_KEY must be at least ${ADMIN_KEY_MIN_LENGTH} characters`);
    }
    const keyId = deriveBootstrapKeyId(adminKey);
    let created: boolean;
    try {
      created = await this.create(keyId, adminKey, {
        scope: 'admin',
        name: 'admin key from SWITCHYARD_ADMIN_KEY',
        account,
      });
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') {
        throw conflict('SWITCHYARD_ADMIN_KEY collides with an existing key that has another secret');
      }
      throw error;
    }
    if (created) return { outcome: 'configured_key_created', keyId };
    const existing = await this.credentials.findById(keyId);
    return { outcome: existing?.revoked ? 'configured_key_revoked' : 'configured_key_present', keyId };
  }

  /** Appends the creation, waits for the read model; false when the key already existed as is. */
  private async create(
    keyId: string,
    secret: string,
    details: { scope: ApplicationKeyScope; name: string; account: { id: number; login: string } },
  ): Promise<boolean> {
    const result = await readYourWrite(this.deps.freshness, CREDENTIAL_READ_MODELS, () =>
      this.deps.commands.handle(applicationKeyStreamId(keyId), applicationKeyDecider, {
        type: 'CreateApplicationKey',
        keyId,
        name: details.name,
        scope: details.scope,
        account: details.account,
        secretHash: hashSecret(secret),
        at: this.deps.clock.now(),
      }),
    );
    return result.events.length > 0;
  }

  /** Waits until the read model includes everything written so far; false on timeout. */
  private async catchUp(): Promise<boolean> {
    return this.deps.freshness.waitFor(CREDENTIAL_READ_MODELS, await this.deps.store.headPosition());
  }
}
