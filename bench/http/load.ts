import { readFileSync } from 'node:fs';
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
  /**
   * The server process's CPU time (user + system) per served request, in µs; NaN off Linux. The
   * load generator shares the machine's cores, so this says what a request costs the server where
   * req/s also says how the cores were shared.
   */
  serverCpuMicros: number;
}

/** CPU seconds a process has used so far (utime + stime from /proc), or NaN where there is no /proc. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

export interface Load {
  /** Path and method of each request; called once per request, so it can vary the target. */
  next(): { method: 'GET' | 'PUT'; path: string; body?: string };
  connections: number;
  seconds: number;
}

/** One autocannon run, counting only 2xx answers as served. */
export async function runLoad(
  server: { baseUrl: string; pid: number },
  headers: Record<string, string>,
  load: Load,
): Promise<LoadResult> {
  const cpuBefore = cpuSeconds(server.pid);
  const result = await autocannon({
    url: server.baseUrl,
    connections: load.connections,
    duration: load.seconds,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, ...load.next() }) }],
  });
  const served = result['2xx'];
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  return {
    requestsPerSecond: served / result.duration,
    p50: served > 0 ? result.latency.p50 : Number.NaN,
    p99: served > 0 ? result.latency.p99 : Number.NaN,
    requests: served,
    failures: result.non2xx + result.errors,
    serverCpuMicros: served > 0 ? (cpu * 1e6) / served : Number.NaN,
  };
}
