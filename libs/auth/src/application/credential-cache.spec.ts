import type { SqlExecutor } from '@switchyard/sql';
import { FixedClock } from '@switchyard/kernel';
import { describeEachDatabase } from '@switchyard/testing';
import { newAuthTestKit, openCredentialDatabase, type AuthTestKit } from '../../test/auth-test-kit';
import { StaticTokenVerifier } from '../host-token/static-token-verifier';
import { CredentialReadModel } from '../projection/credential-read-model';
import type { CredentialRecord } from '../projection/credential-record';
import { hashSecret } from '../secrets/secrets';
import { ApplicationKeyService } from './application-key.service';
import { CachedCredentialLookup, CREDENTIAL_CACHE_TTL_MS } from './credential-cache';
import { CredentialResolver, type CredentialLookup } from './credential-resolver';
import { invalidatingFreshness } from './invalidating-freshness';
import { ServiceTokenService } from './service-token.service';
import { credentialRecord as record } from '../../test/credential-record-fixture';

/** A table in memory that counts its reads and can hold one read until released. */
class CountingLookup implements CredentialLookup {
  reads = 0;
  rows = new Map<string, CredentialRecord>();
  private held: (() => void) | null = null;
  holdNextRead = false;

  async findBySecretHash(hash: string): Promise<CredentialRecord | null> {
    this.reads += 1;
    const row = this.rows.get(hash) ?? null;
    if (this.holdNextRead) {
      this.holdNextRead = false;
      await new Promise<void>((resolve) => (this.held = resolve));
    }
    return row;
  }

  release(): void {
    this.held?.();
  }
}

describe('CachedCredentialLookup', () => {
  let clock: FixedClock;
  let table: CountingLookup;
  let cache: CachedCredentialLookup;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-05-01T10:00:00Z'));
    table = new CountingLookup();
    table.rows.set('h1', record());
    cache = new CachedCredentialLookup(table, clock);
  });

  it('answers repeated lookups of a credential from memory for at most one second', async () => {
    expect(CREDENTIAL_CACHE_TTL_MS).toBeLessThanOrEqual(1000);
    expect(await cache.findBySecretHash('h1')).toEqual(record());
    clock.advance(CREDENTIAL_CACHE_TTL_MS - 1);
    await cache.findBySecretHash('h1');
    expect(table.reads).toBe(1);
    clock.advance(1);
    await cache.findBySecretHash('h1');
    expect(table.reads).toBe(2);
  });

  it('does not keep unknown digests, so random bearers cannot crowd out real credentials', async () => {
    expect(await cache.findBySecretHash('nope')).toBeNull();
    expect(await cache.findBySecretHash('nope')).toBeNull();
    expect(table.reads).toBe(2);
  });

  it('reads again after invalidate()', async () => {
    await cache.findBySecretHash('h1');
    table.rows.set('h1', record({ revoked: true }));
    cache.invalidate();
    expect((await cache.findBySecretHash('h1'))?.revoked).toBe(true);
  });

  it('does not keep a read that was in flight when invalidate() was called', async () => {
    table.holdNextRead = true;
    const inFlight = cache.findBySecretHash('h1');
    await Promise.resolve();
    table.rows.set('h1', record({ revoked: true }));
    cache.invalidate();
    table.release();
    expect((await inFlight)?.revoked).toBe(false);
    expect((await cache.findBySecretHash('h1'))?.revoked).toBe(true);
  });

  it('peeks only at fresh entries: none before a read, none past the TTL or after invalidate()', async () => {
    expect(cache.peek('h1')).toBeUndefined();
    await cache.findBySecretHash('h1');
    expect(cache.peek('h1')).toEqual(record());
    clock.advance(CREDENTIAL_CACHE_TTL_MS);
    expect(cache.peek('h1')).toBeUndefined();
    await cache.findBySecretHash('h1');
    cache.invalidate();
    expect(cache.peek('h1')).toBeUndefined();
    expect(table.reads).toBe(2);
  });

  it('lets the resolver answer a cached credential at once, and read through a promise otherwise', async () => {
    table.rows.set(hashSecret('syt_x'), record({ kind: 'service_token', scope: null }));
    const resolver = new CredentialResolver(cache, new StaticTokenVerifier({}));
    const first = resolver.resolve('syt_x', clock.now());
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.kind).toBe('service_token');
    const second = resolver.resolve('syt_x', clock.now());
    expect(second).not.toBeInstanceOf(Promise);
    expect((second as Awaited<typeof second>)?.kind).toBe('service_token');
    table.rows.set(hashSecret('syt_x'), record({ kind: 'service_token', scope: null, revoked: true }));
    cache.invalidate();
    expect(await resolver.resolve('syt_x', clock.now())).toBeNull();
  });

  it('treats an entry as stale when the clock went back', async () => {
    await cache.findBySecretHash('h1');
    clock.advance(-1);
    await cache.findBySecretHash('h1');
    expect(table.reads).toBe(2);
  });

  it('does not extend a credential beyond its expiry', async () => {
    const expiresAt = new Date(clock.now().getTime() + 500);
    table.rows.set(hashSecret('syt_x'), record({ kind: 'service_token', scope: null, expiresAt }));
    const resolver = new CredentialResolver(cache, new StaticTokenVerifier({}));
    expect(await resolver.resolve('syt_x', clock.now())).not.toBeNull();
    clock.advance(500);
    expect(await resolver.resolve('syt_x', clock.now())).toBeNull();
    expect(table.reads).toBe(1);
  });
});

describeEachDatabase('credential cache across processes', (database) => {
  let sql: SqlExecutor;
  let kit: AuthTestKit;

  beforeAll(async () => {
    sql = await openCredentialDatabase(database);
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    kit = await newAuthTestKit(sql);
  });

  /** What one process holds: its own cache over the shared table, and services that invalidate it. */
  const processOver = (deps: AuthTestKit['deps']) => {
    const cache = new CachedCredentialLookup(new CredentialReadModel(deps.sql), deps.clock);
    const own = { ...deps, freshness: invalidatingFreshness(deps.freshness, cache) };
    return {
      resolver: new CredentialResolver(cache, new StaticTokenVerifier({})),
      keys: new ApplicationKeyService(own),
      tokens: new ServiceTokenService(own),
    };
  };

  it('refuses a revoked key on the very next request in the process that revoked it', async () => {
    const here = processOver(kit.deps);
    const key = await here.keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
    const token = await here.tokens.issueServiceToken({ accountLogin: 'acme' });
    expect(await here.resolver.resolve(key.secret, kit.clock.now())).not.toBeNull();
    expect(await here.resolver.resolve(token.secret, kit.clock.now())).not.toBeNull();

    await here.keys.revokeApplicationKey(key.id);
    expect(await here.resolver.resolve(key.secret, kit.clock.now())).toBeNull();
    await here.tokens.revokeServiceToken(token.id);
    expect(await here.resolver.resolve(token.secret, kit.clock.now())).toBeNull();
  });

  it("refuses a key revoked by another process once this process's entry has lived its TTL", async () => {
    const api = processOver(kit.deps);
    const cli = processOver(kit.deps);
    const key = await cli.keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
    expect(await api.resolver.resolve(key.secret, kit.clock.now())).not.toBeNull();

    await cli.keys.revokeApplicationKey(key.id);
    expect(await cli.resolver.resolve(key.secret, kit.clock.now())).toBeNull();
    kit.clock.advance(CREDENTIAL_CACHE_TTL_MS);
    expect(await api.resolver.resolve(key.secret, kit.clock.now())).toBeNull();
  });
});
