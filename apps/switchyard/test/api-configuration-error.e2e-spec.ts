import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnDeploymentProcess } from './deployment-processes';

/**
 * The api of a split deployment shares its stores with the projector, so it cannot run on the
 * embedded store: started without DATABASE_URL it stops at once, as for any other configuration
 * error (exit code 2, what a supervisor tells apart from a crash), saying what to set.
 */
describe('the api process without DATABASE_URL', () => {
  jest.setTimeout(120_000);

  it('exits with 2 and says to set DATABASE_URL, creating nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'switchyard-api-'));
    try {
      const api = spawnDeploymentProcess('api', {
        PORT: '0',
        HOST: '127.0.0.1',
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_ADMIN_KEY: 'test-admin-key-0123456789abcdef',
      });
      expect(await api.exited).toBe(2);
      expect(api.stderr()).toBe(
        'api failed to start: Invalid configuration:\n' +
          '  - The api process shares its stores with the projector: set DATABASE_URL (PostgreSQL).\n',
      );
      // It stopped before opening any store: no embedded database was made in its stead.
      expect(await readdir(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
