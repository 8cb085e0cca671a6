import type { AccountRef } from '../domain/account';
import type { CredentialRecord } from '../projection/credential-record';

/** What listings show: everything but the secret, which is never stored. */
export interface CredentialSummary {
  id: string;
  name: string;
  /** Application keys: admin or ci; service tokens: null. */
  scope: 'admin' | 'ci' | null;
  account: AccountRef;
  createdAt: Date;
  expiresAt: Date | null;
  revoked: boolean;
  revokedAt: Date | null;
  /** What the guard would say of it now. */
  status: 'active' | 'revoked' | 'expired';
}

export const toSummary = (record: CredentialRecord, now: Date): CredentialSummary => ({
  id: record.id,
  name: record.name,
  scope: record.scope,
  account: { ...record.account },
  createdAt: record.createdAt,
  expiresAt: record.expiresAt,
  revoked: record.revoked,
  revokedAt: record.revokedAt,
  status: record.revoked
    ? 'revoked'
    : record.expiresAt !== null && record.expiresAt.getTime() <= now.getTime()
      ? 'expired'
      : 'active',
});

/** A credential just made: the only moment its secret exists outside the caller's hands. */
export interface IssuedCredential {
  id: string;
  secret: string;
}
