import type { SqlExecutor } from '@switchyard/sql';
import {
  createAuthServices,
  CredentialReadModel,
  CredentialResolver,
  StaticTokenVerifier,
} from '@switchyard/auth';
import { testDatabases } from '@switchyard/testing';
import { Command } from 'commander';
import {
  everythingStored,
  newAuthTestKit,
  openCredentialDatabase,
  type AuthTestKit,
} from '../../../../libs/auth/test/auth-test-kit';
import type { AuthCliContext } from '@switchyard/runtime';
import { registerKeyCommands } from './keys.command';

describe('keys and tokens commands', () => {
  let sql: SqlExecutor;
  let kit: AuthTestKit;
  let lines: string[];
  let closed: number;

  beforeAll(async () => {
    sql = await openCredentialDatabase(testDatabases()[0]!);
  });
  afterAll(() => sql.close());
  beforeEach(async () => {
    kit = await newAuthTestKit(sql);
    lines = [];
    closed = 0;
  });

  const run = async (...args: string[]) => {
    const program = new Command().exitOverride().configureOutput({ writeErr: () => undefined });
    const open = async (): Promise<AuthCliContext> => ({
      ...createAuthServices(kit.deps),
      close: async () => {
        closed++;
      },
    });
    registerKeyCommands(program, open, (line) => lines.push(line));
    await program.parseAsync(args, { from: 'user' });
  };
  const resolve = (secret: string) =>
    new CredentialResolver(new CredentialReadModel(sql), new StaticTokenVerifier({})).resolve(
      secret,
      kit.clock.now(),
    );

  it('creates a key and prints its secret once, on its own line', async () => {
    await run(
      'keys',
      'create',
      '--account',
      'acme',
      '--scope',
      'ci',
      '--name',
      'uploader',
      '--account-id',
      '42',
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Created ci key [0-9a-f-]{36} for acme\./);
    const secret = lines[1]!;
    expect(secret).toMatch(/^sy_ci_/);
    expect(await resolve(secret)).toMatchObject({
      kind: 'ci_key',
      application: { account: { id: 42, login: 'acme' } },
    });
    expect(await everythingStored(kit)).not.toContain(secret);
    expect(closed).toBe(1);
  });

  it('lists keys without secrets, then revokes one (twice)', async () => {
    await run('keys', 'create', '--account', 'acme', '--scope', 'admin');
    const id = /key ([0-9a-f-]{36})/.exec(lines[0]!)![1]!;
    lines = [];
    await run('keys', 'list');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^${id}  admin  acme \\(\\d+\\)  active  created `)),
    ]);
    lines = [];
    await run('keys', 'revoke', id);
    await run('keys', 'revoke', id);
    expect(lines).toEqual([`Revoked key ${id}.`, `Key ${id} was already revoked.`]);
  });

  it('refuses an unknown scope before touching storage', async () => {
    await expect(run('keys', 'create', '--account', 'acme', '--scope', 'owner')).rejects.toThrow(/scope/);
    expect(closed).toBe(0);
  });

  it('issues a token with a lifetime, lists and revokes it', async () => {
    await run('tokens', 'issue', '--account', 'acme', '--name', 'grafana', '--ttl-days', '30');
    expect(lines[0]).toMatch(
      /^Issued service token [0-9a-f-]{36} for acme, expires 2026-05-31T10:00:00.000Z\./,
    );
    expect(lines[1]).toMatch(/^syt_/);
    const id = /token ([0-9a-f-]{36})/.exec(lines[0]!)![1]!;
    lines = [];
    await run('tokens', 'list');
    expect(lines[0]).toContain('expires 2026-05-31T10:00:00.000Z');
    await run('tokens', 'revoke', id);
    expect(lines[1]).toBe(`Revoked token ${id}.`);
  });

  it('refuses a non-numeric lifetime', async () => {
    await expect(run('tokens', 'issue', '--account', 'acme', '--ttl-days', 'soon')).rejects.toThrow(
      /positive integer/,
    );
  });

  it('closes the context even when the command fails', async () => {
    await expect(run('keys', 'revoke', '6f9d3c1e-2b4a-4c8e-9f10-1a2b3c4d5e6f')).rejects.toThrow(/not found/);
    expect(closed).toBe(1);
  });
});
