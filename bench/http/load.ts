import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds; NaN when no request completed. */
  p50: number;
  p99: number;
  /** Answered with a 2xx. */
  requests: number;
  /** Non-2xx answers, connection errors and timeouts: a run with any of them measured the wrong thing. */
  failures: number;
}

export interface Load {
  /** Path and method of each request; called once per request, so it can vary the target. */
  next(): { method: 'GET' | 'PUT'; path: string; body?: string };
  connections: number;
  seconds: number;
}

/** One autocannon run, counting only 2xx answers as served. */
export async function runLoad(
  baseUrl: string,
  headers: Record<string, string>,
  load: Load,
): Promise<LoadResult> {
  const result = await autocannon({
    url: baseUrl,
    connections: load.connections,
    duration: load.seconds,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, ...load.next() }) }],
  });
  const served = result['2xx'];
  return {
    requestsPerSecond: served / result.duration,
    p50: served > 0 ? result.latency.p50 : Number.NaN,
    p99: served > 0 ? result.latency.p99 : Number.NaN,
    requests: served,
    failures: result.non2xx + result.errors,
  };
}
