import { Octokit } from '@octokit/rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import type { RequestMeter, StampedScope } from './request-meter';

/** The request option that carries the caller's metering scope (Octokit never sends `request.*`). */
const SCOPE = 'switchyardMeterScope';

type OctokitWithHook = { hook: { wrap: Octokit['hook']['wrap'] } };
const meterOf = (options: unknown) => (options as { meter?: RequestMeter }).meter;

/**
 * The outermost request hook (its plugin is applied last): it runs in the caller's context, so it
 * takes the caller's metering scope into the request's options.
 */
function stampMeterScope(octokit: OctokitWithHook, options: unknown): void {
  const meter = meterOf(options);
  if (!meter) return;
  octokit.hook.wrap('request', (request, requestOptions) => {
    const stamped = meter.stamp();
    // Hooks further in see this options object (before-after-hook binds it to each of them), so
    // it is changed in place; it is made per call, unlike the `request` object it holds.
    if (stamped && !requestOptions.request?.[SCOPE])
      requestOptions.request = { ...requestOptions.request, [SCOPE]: stamped };
    return request(requestOptions);
  });
}

/**
 * The innermost plugin hook, under throttling and retry: their schedulers send each attempt from
 * wherever their queue is drained, so the stamped scope is entered again here, around the
 * authentication hook (installation tokens it fetches count too) and the HTTP call that counts.
 */
function enterMeterScope(octokit: OctokitWithHook): void {
  octokit.hook.wrap('request', (request, requestOptions) => {
    const stamped = requestOptions.request?.[SCOPE] as StampedScope | undefined;
    return stamped
      ? stamped.meter.within(stamped, async () => request(requestOptions))
      : request(requestOptions);
  });
}

/**
 * A request that failed, once (after retries), as a line of our own. A 404 is an answer the
 * adapter asks for (a configuration file that is not there, a user in no team, a label already
 * gone), so it is a debug line; anything else is a warning. It replaces Octokit's own line for
 * each failed attempt (its request-log plugin's, at `error`: see octokitOptions).
 */
function reportFailedRequests(octokit: OctokitWithHook & Pick<Octokit, 'request'>, options: unknown): void {
  const log = (options as { failureLog?: OctokitLog }).failureLog;
  if (!log) return;
  octokit.hook.wrap('request', async (request, requestOptions) => {
    try {
      return await request(requestOptions);
    } catch (error) {
      const status = (error as { status?: number }).status;
      const { method, url } = octokit.request.endpoint.parse(requestOptions);
      const line = `GitHub ${method} ${url} failed: ${status ?? (error as Error).message}`;
      if (status === 404) log.debug?.(line);
      else log.warn(line);
      throw error;
    }
  });
}

/** Octokit with GitHub's own rate-limit handling (primary and secondary limits) and retries. */
export const GitHubOctokit = Octokit.plugin(
  enterMeterScope,
  throttling,
  retry,
  stampMeterScope,
  reportFailedRequests,
);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;

/** Minting an installation token: a call (on the App's JWT), not a write to any repository. */
const isTokenRequest = (method: string, url: string | URL) =>
  method === 'POST' && /\/app\/installations\/\d+\/access_tokens$/.test(new URL(url).pathname);

/** How many times a request that hit a rate limit is retried before the operation gives up. */
const RATE_LIMIT_RETRIES = 2;

/** Octokit's own log shape (a message, no context): what its plugins and our clients write to. */
export interface OctokitLog {
  warn(message: string): void;
  debug?(message: string): void;
}

/**
 * `paced`: GitHub's own pacing (at most one write a second, concurrency limits, waiting out
 * limits). Off for the sandbox, which has no rate limits and would only be slowed by it.
 * `meter`: counts every HTTP request the Octokit sends (retries and installation tokens included)
 * against the operation and `metered` scopes that asked for it.
 */
export function octokitOptions(
  baseUrl: string,
  log: OctokitLog,
  paced: boolean,
  meter: RequestMeter,
): ConstructorParameters<typeof GitHubOctokit>[0] {
  return {
    baseUrl,
    userAgent: 'switchyard',
    meter,
    failureLog: log,
    request: {
      fetch: (url: string | URL, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        meter.count(method, isTokenRequest(method, url));
        return globalThis.fetch(url, init);
      },
    },
    log: {
      debug: () => undefined,
      info: () => undefined,
      warn: (m: string) => log.warn(m),
      // Only Octokit's request log says `error`, for each failed attempt: reportFailedRequests
      // says it once instead, at the level the status deserves.
      error: () => undefined,
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
