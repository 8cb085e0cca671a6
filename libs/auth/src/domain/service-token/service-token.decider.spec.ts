import { DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import type { IssueServiceToken, RevokeServiceToken } from './service-token.commands';
import { serviceTokenDecider } from './service-token.decider';
import type { ServiceTokenIssued, ServiceTokenRevoked } from './service-token.events';

const spec = DeciderSpecification.for(serviceTokenDecider);
const tokenId = '0b5e7c4a-93f1-4d2e-8a6b-7c8d9e0f1a2b';
const at = new Date('2026-05-01T10:00:00Z');

const issue = (overrides: Partial<IssueServiceToken> = {}): IssueServiceToken => ({
  type: 'IssueServiceToken',
  tokenId,
  name: 'grafana',
  account: { id: 42, login: 'acme' },
  secretHash: 'c'.repeat(64),
  at,
  expiresAt: new Date('2026-05-31T10:00:00Z'),
  ...overrides,
});
const revoke: RevokeServiceToken = {
  type: 'RevokeServiceToken',
  tokenId,
  at: new Date('2026-05-03T00:00:00Z'),
};

const issued: ServiceTokenIssued = {
  type: 'service_token.issued',
  data: {
    token_id: tokenId,
    name: 'grafana',
    account: { id: 42, login: 'acme' },
    secret_hash: 'c'.repeat(64),
    issued_at: '2026-05-01T10:00:00.000Z',
    expires_at: '2026-05-31T10:00:00.000Z',
  },
};
const revoked: ServiceTokenRevoked = {
  type: 'service_token.revoked',
  data: { token_id: tokenId, revoked_at: '2026-05-03T00:00:00.000Z' },
};

describe('serviceTokenDecider', () => {
  it('issues a token with an expiry', () => spec.given([]).when(issue()).then([issued]));

  it('issues a token that lives until revoked', () =>
    spec
      .given([])
      .when(issue({ expiresAt: null }))
      .then([{ ...issued, data: { ...issued.data, expires_at: null } }]));

  it('refuses an expiry that is not after the issue time', () => {
    spec
      .given([])
      .when(issue({ expiresAt: at }))
      .thenThrows(DomainError, /expire after/);
  });

  it('refuses a second token under the same id', () => {
    spec
      .given([issued])
      .when(issue())
      .thenThrows(DomainError, /already exists/);
  });

  it('revokes, and revoking twice is a no-op', () => {
    spec.given([issued]).when(revoke).then([revoked]);
    spec.given([issued, revoked]).when(revoke).thenNothingHappened();
  });

  it('refuses to revoke an unknown token', () => {
    spec
      .given([])
      .when(revoke)
      .thenThrows(DomainError, /not found/);
  });
});
