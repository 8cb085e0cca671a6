import type { SqlExecutor } from '@switchyard/sql';
import { DomainError } from '@switchyard/kernel';
import { describeEachDatabase } from '@switchyard/testing';
import {
  everythingStored,
  newAuthTestKit,
  openCredentialDatabase,
  type AuthTestKit,
} from '../../test/auth-test-kit';
import { defaultAccountId } from '../domain/account';
import { StaticTokenVerifier } from '../host-token/static-token-verifier';
import { CredentialReadModel } from '../projection/credential-read-model';
import { GENERATED_BOOTSTRAP_KEY_ID } from '../secrets/bootstrap-key-id';
import { ApplicationKeyService } from './application-key.service';
import { CredentialResolver } from './credential-resolver';
import { ServiceTokenService } from './service-token.service';

const DAY_MS = 86_400_000;

describeEachDatabase('credential services', (database) => {
  let sql: SqlExecutor;
  let kit: AuthTestKit;
  let keys: ApplicationKeyService;
  let tokens: ServiceTokenService;
  let resolver: CredentialResolver;

  beforeAll(async () => {
    sql = await openCredentialDatabase(database);
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    kit = await newAuthTestKit(sql);
    keys = new ApplicationKeyService(kit.deps);
    tokens = new ServiceTokenService(kit.deps);
    resolver = new CredentialResolver(new CredentialReadModel(sql), new StaticTokenVerifier({}));
  });

  describe('application keys', () => {
    it('creates a key whose secret authenticates as that key', async () => {
      const { id, secret } = await keys.createApplicationKey({
        accountLogin: 'Acme',
        scope: 'ci',
        name: 'uploader',
      });
      expect(secret).toMatch(/^sy_ci_[A-Za-z0-9_-]{43}$/);
      expect(await resolver.resolve(secret, kit.clock.now())).toEqual({
        kind: 'ci_key',
        actor: { type: 'application', id, name: 'uploader' },
        accounts: ['Acme'],
        application: {
          id,
          name: 'uploader',
          scope: 'ci',
          account: { id: defaultAccountId('Acme'), login: 'Acme' },
        },
      });
    });

    it('never stores the secret, only its digest', async () => {
      const { secret } = await keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
      const stored = await everythingStored(kit);
      expect(stored).toContain('secret_hash');
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('sy_admin_'.length));
    });

    it('honours an explicit account id and lists keys without secrets', async () => {
      const { id } = await keys.createApplicationKey({
        accountLogin: 'acme',
        accountId: 123456,
        scope: 'admin',
      });
      const listed = await keys.listApplicationKeys();
      expect(listed).toEqual([
        expect.objectContaining({
          id,
          scope: 'admin',
          account: { id: 123456, login: 'acme' },
          status: 'active',
        }),
      ]);
      expect(JSON.stringify(listed)).not.toMatch(/sy_admin_|secret/);
    });

    it('revokes once, then reports it was already revoked; the secret stops working', async () => {
      const { id, secret } = await keys.createApplicationKey({ accountLogin: 'acme', scope: 'admin' });
      await expect(keys.revokeApplicationKey(id.toUpperCase())).resolves.toEqual({ revoked: true });
      await expect(keys.revokeApplicationKey(id)).resolves.toEqual({ revoked: false });
      expect(await resolver.resolve(secret, kit.clock.now())).toBeNull();
      expect((await keys.listApplicationKeys())[0]!.status).toBe('revoked');
    });

    it('refuses to revoke an unknown key and to create one for an invalid login', async () => {
      await expect(keys.revokeApplicationKey('6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f')).rejects.toMatchObject({
        kind: 'not_found',
      });
      await expect(
        keys.createApplicationKey({ accountLogin: 'not/valid', scope: 'ci' }),
      ).rejects.toBeInstanceOf(DomainError);
    });
  });

  describe('service tokens', () => {
    it('issues a token that works until it expires', async () => {
      const { id, secret, expiresAt } = await tokens.issueServiceToken({
        accountLogin: 'acme',
        name: 'grafana',
        ttlDays: 30,
      });
      expect(secret).toMatch(/^syt_[A-Za-z0-9_-]{43}$/);
      expect(expiresAt).toEqual(new Date(kit.clock.now().getTime() + 30 * DAY_MS));
      expect(await resolver.resolve(secret, kit.clock.now())).toEqual({
        kind: 'service_token',
        actor: { type: 'application', id, name: 'grafana' },
        accounts: ['acme'],
      });
      kit.clock.advance(30 * DAY_MS);
      expect(await resolver.resolve(secret, kit.clock.now())).toBeNull();
      expect((await tokens.listServiceTokens())[0]!.status).toBe('expired');
    });

    it('never stores the token secret', async () => {
      const { secret } = await tokens.issueServiceToken({ accountLogin: 'acme' });
      expect(await everythingStored(kit)).not.toContain(secret);
    });

    it('revokes idempotently', async () => {
      const { id, secret } = await tokens.issueServiceToken({ accountLogin: 'acme' });
      await expect(tokens.revokeServiceToken(id)).resolves.toEqual({ revoked: true });
      await expect(tokens.revokeServiceToken(id)).resolves.toEqual({ revoked: false });
      expect(await resolver.resolve(secret, kit.clock.now())).toBeNull();
    });

    it.each([0, -1, 1.5, 40_000])('refuses a lifetime of %s days', async (ttlDays) => {
      await expect(tokens.issueServiceToken({ accountLogin: 'acme', ttlDays })).rejects.toMatchObject({
        kind: 'unprocessable',
      });
    });
  });

  describe('ensureBootstrapAdminKey', () => {
    it('generates one admin key on an empty table, and nothing afterwards', async () => {
      const first = await keys.ensureBootstrapAdminKey({ account: 'acme' });
      expect(first).toEqual({
        outcome: 'generated',
        keyId: GENERATED_BOOTSTRAP_KEY_ID,
        secret: expect.stringMatching(/^sy_admin_/),
      });
      const principal = await resolver.resolve((first as { secret: string }).secret, kit.clock.now());
      expect(principal?.kind).toBe('admin_key');
      await expect(keys.ensureBootstrapAdminKey({ account: 'acme' })).resolves.toEqual({
        outcome: 'keys_exist',
      });
      expect(await keys.listApplicationKeys()).toHaveLength(1);
    });

    it('generates nothing when keys already exist', async () => {
      await keys.createApplicationKey({ accountLogin: 'acme', scope: 'ci' });
      await expect(keys.ensureBootstrapAdminKey({ account: 'acme' })).resolves.toEqual({
        outcome: 'keys_exist',
      });
    });

    it('creates one key when two replicas start together', async () => {
      const outcomes = await Promise.all([
        keys.ensureBootstrapAdminKey({ account: 'acme' }),
        new ApplicationKeyService(kit.deps).ensureBootstrapAdminKey({ account: 'acme' }),
      ]);
      expect(outcomes.map((outcome) => outcome.outcome).sort()).toEqual(['generated', 'keys_exist']);
      expect(await keys.listApplicationKeys()).toHaveLength(1);
    });

    it('does nothing while the read model lags, rather than guess the table is empty', async () => {
      kit.freshness.stalled = true;
      await expect(keys.ensureBootstrapAdminKey({ account: 'acme' })).resolves.toEqual({
        outcome: 'read_model_behind',
      });
      kit.freshness.stalled = false;
      expect(await keys.listApplicationKeys()).toEqual([]);
    });

    it('turns SWITCHYARD_ADMIN_KEY into an admin key once, across restarts, without storing it', async () => {
      const adminKey = 'operator-chosen-admin-key-0001';
      const first = await keys.ensureBootstrapAdminKey({ account: 'acme', accountId: 99, adminKey });
      expect(first).toEqual({ outcome: 'configured_key_created', keyId: expect.any(String) });
      expect(first).not.toHaveProperty('secret');
      const restarted = new ApplicationKeyService(kit.deps);
      await expect(restarted.ensureBootstrapAdminKey({ account: 'acme', adminKey })).resolves.toEqual({
        outcome: 'configured_key_present',
        keyId: (first as { keyId: string }).keyId,
      });
      expect(await keys.listApplicationKeys()).toEqual([
        expect.objectContaining({ scope: 'admin', account: { id: 99, login: 'acme' } }),
      ]);
      expect((await resolver.resolve(adminKey, kit.clock.now()))?.kind).toBe('admin_key');
      expect(await everythingStored(kit)).not.toContain(adminKey);
    });

    it('leaves a revoked SWITCHYARD_ADMIN_KEY revoked and says so', async () => {
      const adminKey = 'operator-chosen-admin-key-0002';
      const { keyId } = (await keys.ensureBootstrapAdminKey({ account: 'acme', adminKey })) as {
        keyId: string;
      };
      await keys.revokeApplicationKey(keyId);
      await expect(keys.ensureBootstrapAdminKey({ account: 'acme', adminKey })).resolves.toEqual({
        outcome: 'configured_key_revoked',
        keyId,
      });
      expect(await resolver.resolve(adminKey, kit.clock.now())).toBeNull();
    });

    it('refuses a SWITCHYARD_ADMIN_KEY shorter than 16 characters', async () => {
      await expect(
        keys.ensureBootstrapAdminKey({ account: 'acme', adminKey: 'short-key' }),
      ).rejects.toMatchObject({
        kind: 'unprocessable',
        message: expect.stringMatching(/16 characters/),
      });
    });
  });
});
