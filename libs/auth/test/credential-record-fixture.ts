import type { CredentialRecord } from '../src/projection/credential-record';

/** An active admin key of account acme, with what a test changes. */
export const credentialRecord = (overrides: Partial<CredentialRecord> = {}): CredentialRecord => ({
  kind: 'application_key',
  id: '6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f',
  name: 'deploy',
  scope: 'admin',
  account: { id: 7, login: 'acme' },
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: null,
  revoked: false,
  revokedAt: null,
  ...overrides,
});
