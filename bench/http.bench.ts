import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshPostgresDatabase, type FreshDatabase } from '@switchyard/testing';
import { runLoad, type Load, type LoadResult } from './http/load';
import { median, printOutcomes, type ScenarioOutcome } from './http/report';
import { startAppProcess, startServerProcess, type AppProcess } from './logs/app-process';
import { printMachine } from './logs/report';

/**
 * bench:http — the all-in-one app in its own process (PostgreSQL when DATABASE_URL is set, else
 * PGlite), beside a bare Fastify server in another, under the same autocannon load, alternating
 * ours and the baseline round by round. The app runs at LOG_LEVEL=info, as deployed.
 * BENCH_HTTP_SECONDS (default 3) per run and BENCH_HTTP_ROUNDS (default 3) for longer runs;
 * BENCH_HTTP_CONNECTIONS (default 10) for the reads; BENCH_APP_NODE_ARGS=--cpu-prof to profile;
 * BENCH_HTTP_ONLY=pause (a part of the label: GET, PUT, application, pause) runs only those scenarios.
 */
const SECONDS = Number(process.env.BENCH_HTTP_SECONDS ?? '3');
const ROUNDS = Number(process.env.BENCH_HTTP_ROUNDS ?? '3');
const READ_CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? '10');
const WRITE_CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const FIRST_WARMUP_SECONDS = 3;
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const APP_PORT = 19_000 + (process.pid % 500);
const BASELINE_PORT = APP_PORT + 500;
/** Writes spread over this many repositories, so they take turns on a stream as real ones do. */
const WRITE_REPOSITORIES = 100;
const READ_PAUSE_PATH = '/v1/repos/acme/bench-read/merge-queue/pause';

const log = (line: string) => process.stderr.write(`[bench:http] ${line}\n`);

interface Scenario {
  label: string;
  connections: number;
  next: Load['next'];
  throughputGoal: number;
  p99GoalMs?: number;
}

function writes(): Load['next'] {
  let n = 0;
  return () => {
    n += 1;
    return {
      method: 'PUT',
      path: `/v1/repos/acme/bench-w${n % WRITE_REPOSITORIES}/merge-queue/pause`,
      // A new reason each time, so every request appends an event.
      body: JSON.stringify({ reason: `bench ${n}` }),
    };
  };
}

const ALL_SCENARIOS: Scenario[] = [
  {
    label: 'GET /v1/application',
    connections: READ_CONNECTIONS,
    next: () => ({ method: 'GET', path: '/v1/application' }),
    throughputGoal: 0.6,
  },
  {
    label: 'GET …/merge-queue/pause',
    connections: READ_CONNECTIONS,
    next: () => ({ method: 'GET', path: READ_PAUSE_PATH }),
    throughputGoal: 0.6,
  },
  {
    label: `PUT …/merge-queue/pause (${WRITE_CONNECTIONS} conn.)`,
    connections: WRITE_CONNECTIONS,
    next: writes(),
    throughputGoal: 0.5,
    p99GoalMs: 25,
  },
];

const SCENARIOS = ALL_SCENARIOS.filter(
  (scenario) => !process.env.BENCH_HTTP_ONLY || scenario.label.includes(process.env.BENCH_HTTP_ONLY),
);

async function fetchJson(baseUrl: string, path: string, init: RequestInit = {}): Promise<string> {
  const response = await fetch(`${baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return text;
}

async function main(): Promise<void> {
  const postgresUrl = process.env.DATABASE_URL;
  let database: FreshDatabase | null = null;
  const dirs: string[] = [];
  const processes: AppProcess[] = [];
  try {
    let appStore: string | { dataDir: string };
    let baselineStore: NodeJS.ProcessEnv;
    if (postgresUrl) {
      database = await freshPostgresDatabase(postgresUrl, 'switchyard_bench_http');
      appStore = database.url;
      baselineStore = { DATABASE_URL: database.url };
    } else {
      dirs.push(
        await mkdtemp(join(tmpdir(), 'bench-http-app-')),
        await mkdtemp(join(tmpdir(), 'bench-http-bare-')),
      );
      appStore = { dataDir: dirs[0]! };
      baselineStore = { BASELINE_PGLITE_DIR: dirs[1]! };
    }
    printMachine([
      `store: ${postgresUrl ? 'PostgreSQL' : 'PGlite'}; ${ROUNDS} rounds of ${SECONDS} s per server and scenario ` +
        `(after ${WARMUP_SECONDS} s of warm-up, ${FIRST_WARMUP_SECONDS} s the first time), reads at ${READ_CONNECTIONS} connections`,
    ]);

    log('starting the app...');
    const app = await startAppProcess(appStore, ADMIN_KEY, APP_PORT, { LOG_LEVEL: 'info' });
    processes.push(app);
    await fetchJson(app.baseUrl, READ_PAUSE_PATH, { method: 'PUT', body: '{"reason":"bench"}' });
    const { DATABASE_URL: _inherited, ...env } = process.env;
    log('starting the bare Fastify baseline...');
    const baseline = await startServerProcess({
      entry: 'bench/http/baseline-server.ts',
      port: BASELINE_PORT,
      readyPath: '/ready',
      env: {
        ...env,
        ...baselineStore,
        PORT: String(BASELINE_PORT),
        BASELINE_ADMIN_KEY: ADMIN_KEY,
        BASELINE_APPLICATION_JSON: await fetchJson(app.baseUrl, '/v1/application'),
        BASELINE_PAUSE_JSON: await fetchJson(app.baseUrl, READ_PAUSE_PATH),
      },
    });
    processes.push(baseline);

    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    // A fresh process runs unoptimized code at first: every route gets a longer warm-up once.
    log('warming up...');
    for (const scenario of SCENARIOS) {
      for (const server of [app, baseline]) {
        const load = {
          next: scenario.next,
          connections: scenario.connections,
          seconds: FIRST_WARMUP_SECONDS,
        };
        await runLoad(server, headers, load);
      }
    }
    const outcomes: ScenarioOutcome[] = [];
    for (const scenario of SCENARIOS) {
      const runs = { ours: [] as LoadResult[], baseline: [] as LoadResult[] };
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
        for (const side of order) {
          const server = side === 'ours' ? app : baseline;
          const load = { next: scenario.next, connections: scenario.connections };
          await runLoad(server, headers, { ...load, seconds: WARMUP_SECONDS });
          const result = await runLoad(server, headers, { ...load, seconds: SECONDS });
          runs[side].push(result);
          log(
            `${scenario.label}, round ${round + 1}, ${side}: ${Math.round(result.requestsPerSecond)} req/s, ` +
              `p50 ${result.p50} ms, p99 ${result.p99} ms, server CPU ${result.serverCpuMicros.toFixed(0)} µs/request, ${result.failures} failed`,
          );
        }
      }
      outcomes.push({
        label: scenario.label,
        ours: median(runs.ours),
        baseline: median(runs.baseline),
        throughputGoal: scenario.throughputGoal,
        p99GoalMs: scenario.p99GoalMs,
      });
    }
    printOutcomes(outcomes);
  } finally {
    for (const server of processes.reverse()) await server.stop();
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:http failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
