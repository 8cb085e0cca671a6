import { StaticTokenVerifier } from '../host-token/static-token-verifier';
import type { HostIdentity, TokenVerifier } from '../host-token/token-verifier';
import type { CredentialRecord } from '../projection/credential-record';
import { hashSecret } from '../secrets/secrets';
import { CredentialResolver, type CredentialLookup } from './credential-resolver';
import { credentialRecord as record } from '../../test/credential-record-fixture';

const now = new Date('2026-05-01T10:00:00Z');

const lookupOf = (entries: Record<string, CredentialRecord>): CredentialLookup => ({
  findBySecretHash: async (hash) =>
    Object.entries(entries).find(([secret]) => hashSecret(secret) === hash)?.[1] ?? null,
});

class RecordingVerifier implements TokenVerifier {
  readonly asked: string[] = [];
  constructor(private readonly identity: HostIdentity | null) {}
  async verify(token: string) {
    this.asked.push(token);
    return this.identity;
  }
}

describe('CredentialResolver', () => {
  it('resolves host tokens through the verifier as a user actor', async () => {
    const verifier = new StaticTokenVerifier({
      ghp_alice: { user: { id: 501, login: 'alice' }, accounts: ['acme', 'alice'] },
    });
    const resolver = new CredentialResolver(lookupOf({}), verifier);
    expect(await resolver.resolve('ghp_alice', now)).toEqual({
      kind: 'host_token',
      actor: { type: 'user', id: 501, name: 'alice' },
      accounts: ['acme', 'alice'],
    });
    expect(await resolver.resolve('ghp_mallory', now)).toBeNull();
  });

  it('never sends one of our own secrets to the code host', async () => {
    const verifier = new RecordingVerifier({ user: { id: 1, login: 'x' }, accounts: ['acme'] });
    const resolver = new CredentialResolver(lookupOf({}), verifier);
    expect(await resolver.resolve('sy_admin_unknown', now)).toBeNull();
    expect(await resolver.resolve('syt_unknown', now)).toBeNull();
    expect(verifier.asked).toEqual([]);
  });

  it('refuses revoked and expired credentials without asking the code host', async () => {
    const verifier = new RecordingVerifier({ user: { id: 1, login: 'x' }, accounts: ['acme'] });
    const resolver = new CredentialResolver(
      lookupOf({
        'custom-admin-key-revoked': record({ revoked: true }),
        syt_expired: record({ kind: 'service_token', scope: null, expiresAt: now }),
        syt_valid: record({ kind: 'service_token', scope: null, expiresAt: new Date(now.getTime() + 1) }),
      }),
      verifier,
    );
    expect(await resolver.resolve('custom-admin-key-revoked', now)).toBeNull();
    expect(await resolver.resolve('syt_expired', now)).toBeNull();
    expect((await resolver.resolve('syt_valid', now))?.kind).toBe('service_token');
    expect(verifier.asked).toEqual([]);
  });

  it('maps key scopes to admin_key and ci_key', async () => {
    const resolver = new CredentialResolver(
      lookupOf({ sy_admin_a: record({ scope: 'admin' }), sy_ci_b: record({ scope: 'ci' }) }),
      new RecordingVerifier(null),
    );
    expect((await resolver.resolve('sy_admin_a', now))?.kind).toBe('admin_key');
    expect((await resolver.resolve('sy_ci_b', now))?.kind).toBe('ci_key');
  });
});
