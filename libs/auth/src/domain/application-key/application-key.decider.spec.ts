import { DomainError } from '@switchyard/kernel';
import { DeciderSpecification } from '@switchyard/testing';
import type { CreateApplicationKey, RevokeApplicationKey } from './application-key.commands';
import { applicationKeyDecider } from './application-key.decider';
import type { ApplicationKeyCreated, ApplicationKeyRevoked } from './application-key.events';

const spec = DeciderSpecification.for(applicationKeyDecider);
const keyId = '6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f';
const hash = 'a'.repeat(64);
const at = new Date('2026-05-01T10:00:00Z');

const create = (overrides: Partial<CreateApplicationKey> = {}): CreateApplicationKey => ({
  type: 'CreateApplicationKey',
  keyId,
  name: 'deploy bot',
  scope: 'ci',
  account: { id: 123456, login: 'Mergifyio' },
  secretHash: hash,
  at,
  ...overrides,
});
const revoke: RevokeApplicationKey = {
  type: 'RevokeApplicationKey',
  keyId,
  at: new Date('2026-05-02T00:00:00Z'),
};

const created: ApplicationKeyCreated = {
  type: 'application_key.created',
  data: {
    key_id: keyId,
    name: 'deploy bot',
    scope: 'ci',
    account: { id: 123456, login: 'Mergifyio' },
    secret_hash: hash,
    created_at: '2026-05-01T10:00:00.000Z',
  },
};
const revoked: ApplicationKeyRevoked = {
  type: 'application_key.revoked',
  data: { key_id: keyId, revoked_at: '2026-05-02T00:00:00.000Z' },
};

describe('applicationKeyDecider', () => {
  it('creates a key', () => spec.given([]).when(create()).then([created]));

  it('treats the same key created again as done (bootstrap key across restarts)', () =>
    spec.given([created]).when(create()).thenNothingHappened());

  it('refuses another key under the same id', () => {
    spec
      .given([created])
      .when(create({ secretHash: 'b'.repeat(64) }))
      .thenThrows(DomainError, /already exists/);
  });

  it('refuses an unknown scope', () => {
    spec
      .given([])
      .when(create({ scope: 'owner' as never }))
      .thenThrows(DomainError, /scope/);
  });

  it.each([
    [{ name: '' }, /name/],
    [{ name: 'x'.repeat(256) }, /name/],
    [{ account: { id: 1, login: 'not/valid' } }, /account login/],
    [{ account: { id: 0, login: 'ok' } }, /account id/],
    [{ secretHash: 'sy_admin_plaintext' }, /hash/],
  ])('refuses invalid input %j', (overrides, message) => {
    const error = spec.given([]).when(create(overrides)).thenThrows(DomainError, message) as DomainError;
    expect(error.kind).toBe('unprocessable');
  });

  it('accepts a 255-emoji name (code points, not UTF-16 units)', () =>
    spec
      .given([])
      .when(create({ name: '🔑'.repeat(255) }))
      .then([{ ...created, data: { ...created.data, name: '🔑'.repeat(255) } }]));

  it('revokes an active key', () => spec.given([created]).when(revoke).then([revoked]));

  it('revoking twice is a no-op', () => spec.given([created, revoked]).when(revoke).thenNothingHappened());

  it('refuses to revoke an unknown key', () => {
    const error = spec
      .given([])
      .when(revoke)
      .thenThrows(DomainError, /not found/) as DomainError;
    expect(error.kind).toBe('not_found');
  });
});
