import { startHttpApp, type RunningHttpApp } from '@switchyard/runtime';
import { ApplicationKeyService, ServiceTokenService } from '@switchyard/auth';
import { loadConfig } from '@switchyard/platform';
import type { AuthCliContext } from '@switchyard/runtime';
import { openAuthCliContext } from '@switchyard/runtime';
import {
  createFreshPostgresDatabase,
  postgresAvailable,
  type FreshDatabase,
} from './fresh-postgres-database';
import { TEST_ACCOUNT, TEST_ADMIN_KEY } from './harness';

const describeOnPostgres = postgresAvailable() ? describe : describe.skip;

/**
 * The CLI's commands wait until the read models include their event. While the all-in-one runs
 * the projections, that wait follows the service's checkpoints. The CLI is given a read-your-writes
 * timeout far beyond each test's own, so a command that returns in time returned because its event
 * was applied, not because the wait gave up.
 */
const CLI_WAIT_MS = '120000';
const TEST_TIMEOUT_MS = 20_000;

describeOnPostgres('the CLI while the all-in-one runs on PostgreSQL', () => {
  let database: FreshDatabase;
  let service: RunningHttpApp;
  let cli: AuthCliContext;
  beforeAll(async () => {
    database = await createFreshPostgresDatabase();
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      SWITCHYARD_ACCOUNT: TEST_ACCOUNT,
      SWITCHYARD_ADMIN_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: 'silent',
    };
    service = await startHttpApp(loadConfig(env), { role: 'all-in-one', announce: () => undefined });
    cli = await openAuthCliContext(
      loadConfig({ ...env, SWITCHYARD_READ_YOUR_WRITES_TIMEOUT_MS: CLI_WAIT_MS }),
    );
  });
  afterAll(async () => {
    await cli?.close();
    await service?.close();
    await database?.drop();
  });

  const statusOf = async (id: string) =>
    (await service.app.get(ApplicationKeyService).listApplicationKeys()).find((key) => key.id === id)?.status;

  it(
    'keys revoke returns once the running service has applied the revocation',
    async () => {
      const { id } = await service.app
        .get(ApplicationKeyService)
        .createApplicationKey({ accountLogin: TEST_ACCOUNT, scope: 'ci' });
      expect(await cli.keys.revokeApplicationKey(id)).toEqual({ revoked: true });
      expect(await statusOf(id)).toBe('revoked');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'tokens revoke returns once the running service has applied the revocation',
    async () => {
      const { id } = await service.app
        .get(ServiceTokenService)
        .issueServiceToken({ accountLogin: TEST_ACCOUNT });
      expect(await cli.tokens.revokeServiceToken(id)).toEqual({ revoked: true });
      const tokens = await cli.tokens.listServiceTokens();
      expect(tokens.find((token) => token.id === id)?.status).toBe('revoked');
    },
    TEST_TIMEOUT_MS,
  );
});
