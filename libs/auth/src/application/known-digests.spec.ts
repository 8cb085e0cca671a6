import { StaticTokenVerifier } from '../host-token/static-token-verifier';
import { hashSecret } from '../secrets/secrets';
import { credentialRecord as record } from '../../test/credential-record-fixture';
import { CredentialResolver } from './credential-resolver';
import { KnownDigests } from './known-digests';

describe('KnownDigests', () => {
  it('gives the SHA-256 digest whether remembered or not', () => {
    const digests = new KnownDigests();
    expect(digests.of('sy_admin_x')).toBe(hashSecret('sy_admin_x'));
    digests.remember('sy_admin_x', hashSecret('sy_admin_x'));
    expect(digests.of('sy_admin_x')).toBe(hashSecret('sy_admin_x'));
  });

  it('keeps at most 1000 bearers, dropping the oldest', () => {
    const digests = new KnownDigests();
    for (let i = 0; i <= 1000; i++) digests.remember(`k${i}`, `d${i}`);
    expect(digests.size).toBe(1000);
    expect(digests.of('k0')).toBe(hashSecret('k0'));
    expect(digests.of('k1000')).toBe('d1000');
  });
});

describe('CredentialResolver and the digests it remembers', () => {
  let rows: Map<string, ReturnType<typeof record>>;
  beforeEach(() => {
    rows = new Map([[hashSecret('sy_admin_known'), record()]]);
  });
  const resolverOver = () =>
    new CredentialResolver(
      { findBySecretHash: async (hash) => rows.get(hash) ?? null },
      new StaticTokenVerifier({ ghp_alice: { user: { id: 1, login: 'alice' }, accounts: ['acme'] } }),
    );

  it('remembers only bearers that named a credential of ours', async () => {
    const resolver = resolverOver();
    expect(await resolver.resolve('sy_admin_unknown', new Date())).toBeNull();
    expect(await resolver.resolve('ghp_alice', new Date())).not.toBeNull();
    expect(resolver.rememberedDigests).toBe(0);
    expect(await resolver.resolve('sy_admin_known', new Date())).not.toBeNull();
    expect(resolver.rememberedDigests).toBe(1);
  });

  it('still reads the record on every request without a cache, so a revocation shows at once', async () => {
    const resolver = resolverOver();
    expect(await resolver.resolve('sy_admin_known', new Date())).not.toBeNull();
    rows.set(hashSecret('sy_admin_known'), record({ revoked: true }));
    expect(await resolver.resolve('sy_admin_known', new Date())).toBeNull();
  });
});
