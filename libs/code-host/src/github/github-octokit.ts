import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { RequestMeter } from './request-meter';

/** Octokit with GitHub's own rate-limit handling (primary and secondary limits) and retries. */
export const GitHubOctokit = Octokit.plugin(throttling, retry);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

/** How many times a request that hit a rate limit is retried before the operation gives up. */
const RATE_LIMIT_RETRIES = 2;

interface Logger {
  warn(message: string): void;
}

/**
 * `paced`: GitHub's own pacing (at most one write a second, concurrency limits, waiting out
 * limits). Off for the sandbox, which has no rate limits and would only be slowed by it.
 */
export function octokitOptions(
  baseUrl: string,
  log: Logger,
  paced = true,
): ConstructorParameters<typeof GitHubOctokit>[0] {
  return {
    baseUrl,
    userAgent: 'switchyard',
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => log.warn(m),
      error: (m: string) => log.warn(m),
    },
    throttle: {
      enabled: paced,
      onRateLimit: (retryAfter, options, _octokit, retryCount) => {
        log.warn(`GitHub rate limit on ${options.method} ${options.url}; retry in ${retryAfter}s`);
        return retryCount < RATE_LIMIT_RETRIES;
      },
      onSecondaryRateLimit: (retryAfter, options, _octokit, retryCount) => {
        log.warn(`GitHub secondary rate limit on ${options.method} ${options.url}; retry in ${retryAfter}s`);
        return retryCount < RATE_LIMIT_RETRIES;
      },
    },
    retry: { doNotRetry: [400, 401, 403, 404, 405, 409, 410, 422, 451] },
  };
}

/** Every HTTP request an Octokit sends is counted against the operation that sent it. */
export function meterRequests(octokit: GitHubOctokit, meter: RequestMeter): GitHubOctokit {
  octokit.hook.before('request', (options) => meter.count(options.method));
  return octokit;
}
