import {
  defaultQueuePolicy,
  halvingBatch,
  informationBound,
  serialThroughput,
  simulate,
  speculativeRunsPerMerged,
  speculativeThroughput,
  type QueuePolicy,
  type SimulationResult,
  type Workload,
} from '@switchyard/merge-queue';

/**
 * bench:queue — the merge-queue engine (real decider and planner, sandbox CI model) on a virtual
 * clock over the workloads and strategies of performance-anchors §1.2/§1.3, against the
 * closed-form bound of each configuration computed in the same run. No wall-clock waits; fixed
 * seeds. BENCH_QUEUE_HOURS (default 24) sets the simulated horizon of the workload grid.
 */
const HOURS = Number(process.env.BENCH_QUEUE_HOURS ?? '24');
const SEED = Number(process.env.BENCH_QUEUE_SEED ?? '7');
const SEEDS = Number(process.env.BENCH_QUEUE_SEEDS ?? '3');
const T_HOURS = 0.5;

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Strategy {
  name: string;
  policy: QueuePolicy;
  /** Saturated capacity (merged PR/h) from §1.2, or null where no closed form exists (§1.2.5). */
  capacity: (p: number) => number | null;
  scoped?: boolean;
}

const policy = (
  mergeQueue: Partial<QueuePolicy['mergeQueue']>,
  rule: Partial<QueuePolicy['rules'][number]> = {},
): QueuePolicy => {
  const base = defaultQueuePolicy();
  return {
    mergeQueue: { ...base.mergeQueue, ...mergeQueue },
    rules: [{ ...base.rules[0]!, checksTimeout: null, batchMaxWaitTime: 30, ...rule }],
  };
};

const STRATEGIES: Strategy[] = [
  { name: 'serial', policy: policy({ maxParallelChecks: 1 }), capacity: (p) => serialThroughput(p, T_HOURS) },
  {
    name: 'batch 8 + bisection',
    policy: policy({ maxParallelChecks: 1 }, { batchSize: 8 }),
    capacity: (p) => halvingBatch(8, p, T_HOURS).throughput,
  },
  {
    name: 'parallel checks 5',
    policy: policy({ maxParallelChecks: 5 }),
    capacity: (p) => speculativeThroughput(5, p, T_HOURS),
  },
  {
    name: 'scopes, parallel mode',
    policy: policy({ mode: 'parallel', maxParallelChecks: 5 }),
    capacity: () => null,
    scoped: true,
  },
];

const fixed = (minutes: number) => ({ minutes, spread: 0, shape: 'uniform' as const });
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const num = (x: number | null, digits = 2) => (x === null ? 'n/a' : x.toFixed(digits));
const pad = (text: string, width: number) => text.padEnd(width);
const lpad = (text: string, width: number) => text.padStart(width);

let brokenMainTotal = 0;
let uncheckedTotal = 0;
let simulatedPullRequests = 0;

function run(policyToRun: QueuePolicy, workload: Workload): SimulationResult {
  const result = simulate(policyToRun, workload);
  brokenMainTotal += result.brokenMain;
  if (policyToRun.mergeQueue.mode === 'serial') uncheckedTotal += result.uncheckedMerges;
  simulatedPullRequests += result.arrived;
  return result;
}

/** Runs every seed and pools the results: counts are totals, rates and quantiles are means per seed. */
function runSeeds(policyToRun: QueuePolicy, workloadFor: (seed: number) => Workload): SimulationResult {
  const results = Array.from({ length: SEEDS }, (_, index) =>
    run(policyToRun, workloadFor(SEED + index * 1000)),
  );
  const sum = (pick: (r: SimulationResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const mean = (pick: (r: SimulationResult) => number | null) => {
    const values = results.map(pick).filter((v): v is number => v !== null);
    return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  };
  const merged = sum((r) => r.merged);
  return {
    ...results[0]!,
    arrived: sum((r) => r.arrived),
    brokenArrived: sum((r) => r.brokenArrived),
    merged,
    mergedPerHour: sum((r) => r.mergedPerHour) / SEEDS,
    timeToMergeMinutes: {
      p50: mean((r) => r.timeToMergeMinutes.p50),
      p95: mean((r) => r.timeToMergeMinutes.p95),
      max: mean((r) => r.timeToMergeMinutes.max),
    },
    ciRuns: sum((r) => r.ciRuns),
    ciRunsPerMerged: merged === 0 ? null : sum((r) => r.ciRuns) / merged,
    brokenMain: sum((r) => r.brokenMain),
    uncheckedMerges: sum((r) => r.uncheckedMerges),
    goodRejected: sum((r) => r.goodRejected),
    badRejected: sum((r) => r.badRejected),
    stillQueued: Math.round(sum((r) => r.stillQueued) / SEEDS),
  };
}

function closedFormChecks(): boolean {
  log(
    `## 1. Saturated queue, fixed CI time T = 30 min, 48 h, against the closed forms (§1.2); mean of ${SEEDS} seeds`,
  );
  log('');
  log(
    `${pad('policy', 24)}${pad('p', 6)}${lpad('sim PR/h', 10)}${lpad('bound', 8)}${lpad('ratio', 7)}${lpad('runs/merge', 12)}${lpad('bound', 8)}`,
  );
  let ok = true;
  const hours = 48;
  const cases: Array<{
    name: string;
    policy: QueuePolicy;
    p: number;
    bound: number;
    runs: number | null;
    count: number;
  }> = [
    {
      name: 'serial',
      policy: STRATEGIES[0]!.policy,
      p: 0.1,
      bound: serialThroughput(0.1, T_HOURS),
      runs: 1 / 0.9,
      count: 120,
    },
    {
      name: 'parallel checks 5',
      policy: STRATEGIES[2]!.policy,
      p: 0.1,
      bound: speculativeThroughput(5, 0.1, T_HOURS),
      runs: speculativeRunsPerMerged(5, 0.1),
      count: 500,
    },
    {
      name: 'batch 8 + bisection',
      policy: STRATEGIES[1]!.policy,
      p: 0.1,
      bound: halvingBatch(8, 0.1, T_HOURS).throughput,
      runs: halvingBatch(8, 0.1, T_HOURS).runsPerMerged,
      count: 600,
    },
    {
      name: 'batch 8 + bisection',
      policy: STRATEGIES[1]!.policy,
      p: 0.02,
      bound: halvingBatch(8, 0.02, T_HOURS).throughput,
      runs: halvingBatch(8, 0.02, T_HOURS).runsPerMerged,
      count: 1000,
    },
  ];
  for (const c of cases) {
    const result = runSeeds(c.policy, (seed) => ({
      arrivals: { kind: 'burst', count: c.count },
      ci: fixed(30),
      failureRate: c.p,
      flakeRate: 0,
      scopes: null,
      hours,
      seed,
    }));
    if (result.stillQueued === 0)
      throw new Error(`${c.name}: the burst drained, the queue was not saturated`);
    if (result.goodRejected > 0)
      throw new Error(`${c.name}: a good pull request was rejected without any flaky run`);
    const ratio = result.mergedPerHour / c.bound;
    if (ratio < 0.95) ok = false;
    log(
      `${pad(c.name, 24)}${pad(String(c.p), 6)}${lpad(num(result.mergedPerHour), 10)}${lpad(num(c.bound), 8)}${lpad(num(ratio), 7)}` +
        `${lpad(num(result.ciRunsPerMerged), 12)}${lpad(num(c.runs), 8)}`,
    );
    if (c.name.startsWith('batch') && c.p === 0.1) {
      const runsOk = (result.ciRunsPerMerged ?? Infinity) <= 0.65;
      ok &&= runsOk;
      log(
        `  goal: CI runs per merged PR ≤ 0.65 at p = 0.10, batch 8 (halving gives ${num(c.runs)}, information bound ${num(informationBound(0.1))}): ` +
          `${num(result.ciRunsPerMerged)} ${runsOk ? 'met' : 'MISSED'}`,
      );
    }
  }
  log(`  goal: throughput ≥ 0.95 × closed form: ${ok ? 'met' : 'MISSED'} (see ratios)`);
  log('');
  return ok;
}

function workloadGrid(): void {
  log(
    `## 2. Workloads of §1.3: Poisson arrivals, CI 30 min ±20 %, 1 % flaky runs, ${HOURS} h; mean of ${SEEDS} seeds`,
  );
  log('   bound = min(good PRs that arrived per hour, the closed-form capacity of the configuration)');
  log('');
  log(
    `${pad('arrivals', 10)}${pad('broken', 8)}${pad('scopes', 8)}${pad('strategy', 24)}${lpad('PR/h', 7)}${lpad('bound', 7)}${lpad('ratio', 7)}` +
      `${lpad('p50', 7)}${lpad('p95', 7)}${lpad('runs/PR', 9)}${lpad('broken main', 13)}${lpad('queued', 8)}`,
  );
  for (const perHour of [2, 10, 30]) {
    for (const p of [0.02, 0.05, 0.1, 0.2]) {
      for (const strategy of STRATEGIES) {
        const workload: Workload = {
          arrivals: { kind: 'poisson', perHour },
          ci: { minutes: 30, spread: 0.2, shape: 'uniform' },
          failureRate: p,
          flakeRate: 0.01,
          scopes: strategy.scoped ? { count: 4 } : null,
          hours: HOURS,
          seed: SEED + perHour * 100 + Math.round(p * 100),
        };
        const result = runSeeds(strategy.policy, (seed) => ({ ...workload, seed: workload.seed + seed }));
        const offered = (result.arrived - result.brokenArrived) / (HOURS * SEEDS);
        const capacity = strategy.capacity(p);
        const bound = capacity === null ? null : Math.min(offered, capacity);
        log(
          `${pad(`${perHour}/h`, 10)}${pad(pct(p), 8)}${pad(strategy.scoped ? '4' : '-', 8)}${pad(strategy.name, 24)}` +
            `${lpad(num(result.mergedPerHour), 7)}${lpad(num(bound), 7)}${lpad(bound === null ? 'n/a' : num(result.mergedPerHour / bound), 7)}` +
            `${lpad(num(result.timeToMergeMinutes.p50, 0), 7)}${lpad(num(result.timeToMergeMinutes.p95, 0), 7)}` +
            `${lpad(num(result.ciRunsPerMerged), 9)}${lpad(String(result.brokenMain), 13)}${lpad(String(result.stillQueued), 8)}`,
        );
      }
    }
  }
  log('');
}

function flakeTolerance(): boolean {
  log('## 3. Flake tolerance: 5 % flaky runs, 2 % broken, 10 PR/h, CI 30 min ±20 %, 72 h');
  log('');
  log(`${pad('policy', 40)}${lpad('good rejected / 1,000', 23)}${lpad('PR/h', 7)}${lpad('runs/PR', 9)}`);
  let ok = true;
  const base = { ...STRATEGIES[2]!.policy };
  const variants: Array<[string, QueuePolicy]> = [
    ['parallel checks 5, no retries', base],
    [
      'parallel checks 5, max_checks_retries 1',
      { ...base, rules: [{ ...base.rules[0]!, maxChecksRetries: 1 }] },
    ],
    [
      'parallel checks 5, skip_intermediate_results',
      { ...base, mergeQueue: { ...base.mergeQueue, skipIntermediateResults: true } },
    ],
  ];
  const perThousand: number[] = [];
  for (const [name, variant] of variants) {
    const result = runSeeds(variant, (seed) => ({
      arrivals: { kind: 'poisson', perHour: 10 },
      ci: { minutes: 30, spread: 0.2, shape: 'uniform' },
      failureRate: 0.02,
      flakeRate: 0.05,
      scopes: null,
      hours: 72,
      drainHours: 24,
      seed,
    }));
    const good = result.arrived - result.brokenArrived;
    const rate = (1000 * result.goodRejected) / Math.max(1, good);
    perThousand.push(rate);
    log(
      `${pad(name, 40)}${lpad(num(rate, 1), 23)}${lpad(num(result.mergedPerHour), 7)}${lpad(num(result.ciRunsPerMerged), 9)}`,
    );
  }
  const ratio = perThousand[1]! / Math.max(1e-9, perThousand[0]!);
  ok = ratio <= 0.5;
  log(`  goal: with retries ≤ 0.5 × without: ${num(ratio)} × ${ok ? 'met' : 'MISSED'}`);
  log('');
  return ok;
}

const started = performance.now();
log('bench:queue — virtual clock, fixed seeds; ratios are against closed forms computed in the same run');
log(`BENCH_QUEUE_HOURS=${HOURS} BENCH_QUEUE_SEEDS=${SEEDS} BENCH_QUEUE_SEED=${SEED}`);
log('');
const closedFormsOk = closedFormChecks();
workloadGrid();
const flakeOk = flakeTolerance();
log('## 4. Correctness');
log(`  broken main over every run: ${brokenMainTotal} (goal 0) ${brokenMainTotal === 0 ? 'met' : 'MISSED'}`);
log(`  serial merges main did not match a passing run exactly: ${uncheckedTotal} (goal 0)`);
log('');
const seconds = (performance.now() - started) / 1000;
log(
  `${simulatedPullRequests.toLocaleString('en-US')} simulated pull requests in ${seconds.toFixed(1)} s of wall-clock time`,
);
if (!closedFormsOk || !flakeOk || brokenMainTotal > 0 || uncheckedTotal > 0) process.exitCode = 1;
