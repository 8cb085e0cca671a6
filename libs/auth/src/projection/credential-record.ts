import type { AccountRef } from '../domain/account';
import type { ApplicationKeyScope } from '../domain/application-key/application-key.events';

export type StoredCredentialKind = 'application_key' | 'service_token';

/** One row of `auth_credentials`, as the application reads it. Never holds a secret. */
export interface CredentialRecord {
  kind: StoredCredentialKind;
  id: string;
  name: string;
  /** Application keys only. */
  scope: ApplicationKeyScope | null;
  account: AccountRef;
  createdAt: Date;
  expiresAt: Date | null;
  revoked: boolean;
  revokedAt: Date | null;
}
