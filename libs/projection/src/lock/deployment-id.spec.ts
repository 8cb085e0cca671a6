import { PgliteExecutor } from '@switchyard/sql';
import { deploymentId } from './deployment-id';

describe('deploymentId', () => {
  it('is created once and kept by the database; another database has its own', async () => {
    const [one, other] = await Promise.all([PgliteExecutor.open(), PgliteExecutor.open()]);
    try {
      const first = await deploymentId(one);
      expect(await deploymentId(one)).toBe(first);
      expect(await deploymentId(other)).not.toBe(first);
    } finally {
      await Promise.all([one.close(), other.close()]);
    }
  }, 120_000);
});
