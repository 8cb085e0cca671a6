import type { ReadModelFreshness } from '@switchyard/projection';

/**
 * The credential services' read-your-writes wait, ending with `invalidate()`: once the services
 * have waited for their write (a revocation above all) to reach the read model, this process
 * forgets the credentials it had cached, so its very next request reads the new row. They wait
 * only on writes and listings, which are rare, so dropping the whole cache costs nothing.
 */
export const invalidatingFreshness = (
  freshness: ReadModelFreshness,
  cache: { invalidate(): void },
): ReadModelFreshness => ({
  assertRunning: (readModels) => freshness.assertRunning(readModels),
  async waitFor(...args: Parameters<ReadModelFreshness['waitFor']>): Promise<boolean> {
    try {
      return await freshness.waitFor(...args);
    } finally {
      cache.invalidate();
    }
  },
});
