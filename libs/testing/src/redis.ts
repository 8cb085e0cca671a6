import { reportSkip } from './databases';

/**
 * The Redis server suites may use: REDIS_URL, or null (reported once) so the suite skips. With
 * SWITCHYARD_REQUIRE_REDIS=1 (set by .ci/run) a missing REDIS_URL fails instead of skipping.
 */
export function testRedisUrl(): string | null {
  const url = process.env.REDIS_URL;
  if (url) return url;
  if (process.env.SWITCHYARD_REQUIRE_REDIS === '1') {
    throw new Error('SWITCHYARD_REQUIRE_REDIS=1 but REDIS_URL is not set');
  }
  reportSkip('Redis', 'REDIS_URL');
  return null;
}
