import {
  bestFixedBatch,
  defaultQueuePolicy,
  halvingBatch,
  informationBound,
  informationThroughput,
  mergifySplitBatch,
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
 * clock over the workloads and strategies of performance-anchors §1.2/§1.3, against bounds
 * computed in the same run: each policy's own closed form where one exists, the information bound
 * (one bit per CI run) for every policy, and for batches of 8 the best split any policy with a fixed
 * batch of 8 can do (dynamic programming; bench/README.md has the derivations). No wall-clock
 * waits; fixed seeds. BENCH_QUEUE_HOURS (default 24) sets the simulated horizon of the workload grid.
 */
const HOURS = Number(process.env.BENCH_QUEUE_HOURS ?? '24');
const SEED = Number(process.env.BENCH_QUEUE_SEED ?? '7');
const SEEDS = Number(process.env.BENCH_QUEUE_SEEDS ?? '3');
const T_HOURS = 0.5;
/** Semantic-conflict pairs in the workload grid: performance-anchors §1.3, scenario S5. */
const SEMANTIC_CONFLICT_RATE = 0.01;

const log = (line: string) => process.stdout.write(`${line}\n`);

interface Strategy {
  name: string;
  policy: QueuePolicy;
  /**
   * Saturated capacity (merged PR/h): the closed form of §1.2, or for a batch the best split of a
   * fixed batch of that size; null where neither exists (scopes, §1.2.5).
   */
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
    name: 'batch 8 + split',
    policy: policy({ maxParallelChecks: 1 }, { batchSize: 8 }),
    capacity: (p) => bestFixedBatch(8, p, T_HOURS).throughput,
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
let pairsTotal = 0;
let pairsDroppedTotal = 0;

function run(policyToRun: QueuePolicy, workload: Workload): SimulationResult {
  const result = simulate(policyToRun, workload);
  brokenMainTotal += result.brokenMain;
  if (policyToRun.mergeQueue.mode === 'serial') uncheckedTotal += result.uncheckedMerges;
  simulatedPullRequests += result.arrived;
  pairsTotal += result.semanticPairs;
  pairsDroppedTotal += result.pairRejected;
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
    semanticPairs: sum((r) => r.semanticPairs),
    merged,
    mergedPerHour: sum((r) => r.mergedPerHour) / SEEDS,
    timeToMergeMinutes: {
      p50: mean((r) => r.timeToMergeMinutes.p50),
      p95: mean((r) => r.timeToMergeMinutes.p95),
      max: mean((r) => r.timeToMergeMinutes.max),
    },
    ciRuns: sum((r) => r.ciRuns),
    ciRunsPerMerged: merged === 0 ? null : sum((r) => r.ciRuns) / merged,
    instantTeardowns: sum((r) => r.instantTeardowns),
    brokenMain: sum((r) => r.brokenMain),
    uncheckedMerges: sum((r) => r.uncheckedMerges),
    goodRejected: sum((r) => r.goodRejected),
    badRejected: sum((r) => r.badRejected),
    pairRejected: sum((r) => r.pairRejected),
    stillQueued: Math.round(sum((r) => r.stillQueued) / SEEDS),
  };
}

interface SaturatedCase {
  name: string;
  policy: QueuePolicy;
  p: number;
  /** CI runs at a time: the information bound scales with them. */
  slots: number;
  /** The policy's own closed form (§1.2) at a failure rate, or null (batches: see the split table). */
  own: ((p: number) => { throughput: number; runsPerMerged: number }) | null;
  count: number;
}

/** One seed's burst, measured until it drained, and the broken share it really held. */
interface Drained {
  throughput: number;
  runsPerMerged: number;
  /** The share of the burst that was broken: the bounds are taken at it, as the run faced it. */
  broken: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * A burst of `count` pull requests at t = 0, run until every one has merged or left: merged per
 * hour until then (the queue is saturated all along but for its last batch), for each seed.
 */
function drained(c: SaturatedCase): Drained[] {
  return Array.from({ length: SEEDS }, (_, index) => {
    const result = run(c.policy, {
      arrivals: { kind: 'burst', count: c.count },
      ci: fixed(30),
      failureRate: c.p,
      flakeRate: 0,
      scopes: null,
      hours: 0,
      drainHours: 10_000,
      seed: SEED + index * 1000,
    });
    if (result.drainedAtHours === null) throw new Error(`${c.name}: the burst did not drain`);
    if (result.goodRejected > 0)
      throw new Error(`${c.name}: a good pull request was rejected without any flaky run`);
    return {
      throughput: result.merged / result.drainedAtHours,
      runsPerMerged: result.ciRuns / result.merged,
      broken: result.brokenArrived / result.arrived,
    };
  });
}

function closedFormChecks(): boolean {
  log(
    `## 1. Saturated queue: a burst run until it drained, fixed CI time T = 30 min, against each policy's closed form (§1.2) and the information bound; mean of ${SEEDS} seeds`,
  );
  log('   info bound = slots · q / (H(p) · T): a CI run yields at most one bit (bench/README.md)');
  log(
    '   p̂ = the broken share each seed drew; every bound is taken at it, and ratios are means of per-seed ratios',
  );
  log('');
  log(
    `${pad('policy', 20)}${pad('p', 6)}${lpad('p̂', 7)}${lpad('slots', 6)}${lpad('PR/h', 7)}${lpad('own form', 10)}${lpad('ratio', 7)}` +
      `${lpad('info bound', 12)}${lpad('ratio', 7)}${lpad('runs/merge', 12)}${lpad('own form', 10)}${lpad('info', 7)}${lpad('ratio', 7)}`,
  );
  let ok = true;
  const cases: SaturatedCase[] = [
    {
      name: 'serial',
      policy: STRATEGIES[0]!.policy,
      p: 0.1,
      slots: 1,
      own: (p) => ({ throughput: serialThroughput(p, T_HOURS), runsPerMerged: 1 / (1 - p) }),
      count: 120,
    },
    {
      name: 'parallel checks 5',
      policy: STRATEGIES[2]!.policy,
      p: 0.1,
      slots: 5,
      own: (p) => ({
        throughput: speculativeThroughput(5, p, T_HOURS),
        runsPerMerged: speculativeRunsPerMerged(5, p),
      }),
      count: 500,
    },
    ...[0.1, 0.05, 0.02].map((p) => ({
      name: 'batch 8 + split',
      policy: STRATEGIES[1]!.policy,
      p,
      slots: 1,
      own: null,
      count: p === 0.1 ? 600 : 1000,
    })),
  ];
  const batchRows: Array<{ p: number; seeds: Drained[] }> = [];
  for (const c of cases) {
    const seeds = drained(c);
    const own = c.own;
    const ownRatio = own === null ? null : mean(seeds.map((s) => s.throughput / own(s.broken).throughput));
    if (ownRatio !== null && ownRatio < 0.95) ok = false;
    const information = (s: Drained) => informationThroughput(s.broken, T_HOURS, c.slots);
    log(
      `${pad(c.name, 20)}${pad(String(c.p), 6)}${lpad(num(mean(seeds.map((s) => s.broken)), 3), 7)}${lpad(String(c.slots), 6)}` +
        `${lpad(num(mean(seeds.map((s) => s.throughput))), 7)}` +
        `${lpad(num(own === null ? null : mean(seeds.map((s) => own(s.broken).throughput))), 10)}${lpad(num(ownRatio), 7)}` +
        `${lpad(num(mean(seeds.map(information))), 12)}${lpad(num(mean(seeds.map((s) => s.throughput / information(s)))), 7)}` +
        `${lpad(num(mean(seeds.map((s) => s.runsPerMerged))), 12)}` +
        `${lpad(num(own === null ? null : mean(seeds.map((s) => own(s.broken).runsPerMerged))), 10)}` +
        `${lpad(num(mean(seeds.map((s) => informationBound(s.broken)))), 7)}` +
        `${lpad(num(mean(seeds.map((s) => informationBound(s.broken) / s.runsPerMerged))), 7)}`,
    );
    if (own === null) batchRows.push({ p: c.p, seeds });
  }
  log(`  goal: throughput ≥ 0.95 × own closed form (serial, parallel checks): ${ok ? 'met' : 'MISSED'}`);
  log('  runs/merge counts only CI runs that ran: a draft started and torn down at the same instant is none');
  log('');
  return batchSplits(batchRows) && ok;
}

/** Batch 8 on one slot: the simulated engine against the engine's split rule and the best split, in one model. */
function batchSplits(rows: Array<{ p: number; seeds: Drained[] }>): boolean {
  log(
    '   batch 8 on one CI slot: the engine against the best split any policy with a fixed batch of 8 can do,',
  );
  log('   each taken at the seed’s p̂. best = dynamic programming over split strategies; engine rule = the');
  log(
    '   engine’s own split in the same model; bors halving (§1.2.3) for reference only: it is another policy',
  );
  log('');
  log(
    `   ${pad('p', 6)}${lpad('PR/h', 7)}${lpad('engine rule', 13)}${lpad('sim/rule', 10)}${lpad('best split', 12)}` +
      `${lpad('sim/best', 10)}${lpad('rule/best', 11)}${lpad('best/info', 11)}${lpad('halving', 9)}` +
      `${lpad('runs/merge', 12)}${lpad('best', 7)}${lpad('info', 7)}`,
  );
  let ok = true;
  for (const { p, seeds } of rows) {
    const best = (s: Drained) => bestFixedBatch(8, s.broken, T_HOURS);
    const rule = (s: Drained) => mergifySplitBatch(8, s.broken, T_HOURS, 2);
    const vsBest = mean(seeds.map((s) => s.throughput / best(s).throughput));
    if (vsBest < 0.95) ok = false;
    log(
      `   ${pad(String(p), 6)}${lpad(num(mean(seeds.map((s) => s.throughput))), 7)}` +
        `${lpad(num(mean(seeds.map((s) => rule(s).throughput))), 13)}` +
        `${lpad(num(mean(seeds.map((s) => s.throughput / rule(s).throughput))), 10)}` +
        `${lpad(num(mean(seeds.map((s) => best(s).throughput))), 12)}${lpad(num(vsBest), 10)}` +
        `${lpad(num(mean(seeds.map((s) => rule(s).throughput / best(s).throughput)), 3), 11)}` +
        `${lpad(num(mean(seeds.map((s) => best(s).throughput / informationThroughput(s.broken, T_HOURS)))), 11)}` +
        `${lpad(num(mean(seeds.map((s) => halvingBatch(8, s.broken, T_HOURS).throughput))), 9)}` +
        `${lpad(num(mean(seeds.map((s) => s.runsPerMerged))), 12)}` +
        `${lpad(num(mean(seeds.map((s) => best(s).runsPerMerged))), 7)}` +
        `${lpad(num(mean(seeds.map((s) => informationBound(s.broken)))), 7)}`,
    );
    if (p === 0.1) {
      const runs = mean(seeds.map((s) => s.runsPerMerged));
      const runsOk = runs <= 0.65;
      ok &&= runsOk;
      log(
        `   goal: CI runs per merged PR ≤ 0.65 at p = 0.10 (best split ${num(mean(seeds.map((s) => best(s).runsPerMerged)))}, ` +
          `information bound ${num(mean(seeds.map((s) => informationBound(s.broken))))}): ${num(runs)} ${runsOk ? 'met' : 'MISSED'}`,
      );
    }
  }
  log(`   goal: throughput ≥ 0.95 × the best split of 8: ${ok ? 'met' : 'MISSED'} (see sim/best)`);
  log('');
  return ok;
}

function workloadGrid(): void {
  log(
    `## 2. Workloads of §1.3: Poisson arrivals, CI 30 min ±20 %, 1 % flaky runs, ${pct(SEMANTIC_CONFLICT_RATE)} semantic-conflict pairs, ${HOURS} h; mean of ${SEEDS} seeds`,
  );
  log(
    '   bound = min(PRs that arrived per hour, less the broken ones and one of each pair, the capacity: closed form, or the best split of 8)',
  );
  log('   pairs = halves dropped / pairs drawn (each passes alone, both together fail)');
  log('');
  log(
    `${pad('arrivals', 10)}${pad('broken', 8)}${pad('scopes', 8)}${pad('strategy', 24)}${lpad('PR/h', 7)}${lpad('bound', 7)}${lpad('ratio', 7)}` +
      `${lpad('p50', 7)}${lpad('p95', 7)}${lpad('runs/PR', 9)}${lpad('pairs', 8)}${lpad('broken main', 13)}${lpad('queued', 8)}`,
  );
  for (const perHour of [2, 10, 30]) {
    for (const p of [0.02, 0.05, 0.1, 0.2]) {
      for (const strategy of STRATEGIES) {
        const workload: Workload = {
          arrivals: { kind: 'poisson', perHour },
          ci: { minutes: 30, spread: 0.2, shape: 'uniform' },
          failureRate: p,
          flakeRate: 0.01,
          semanticConflictRate: SEMANTIC_CONFLICT_RATE,
          scopes: strategy.scoped ? { count: 4 } : null,
          hours: HOURS,
          seed: SEED + perHour * 100 + Math.round(p * 100),
        };
        const result = runSeeds(strategy.policy, (seed) => ({ ...workload, seed: workload.seed + seed }));
        const offered = (result.arrived - result.brokenArrived - result.semanticPairs) / (HOURS * SEEDS);
        // At the broken share the seeds drew, not the nominal p: like against like.
        const capacity = strategy.capacity(result.brokenArrived / result.arrived);
        const bound = capacity === null ? null : Math.min(offered, capacity);
        log(
          `${pad(`${perHour}/h`, 10)}${pad(pct(p), 8)}${pad(strategy.scoped ? '4' : '-', 8)}${pad(strategy.name, 24)}` +
            `${lpad(num(result.mergedPerHour), 7)}${lpad(num(bound), 7)}${lpad(bound === null ? 'n/a' : num(result.mergedPerHour / bound), 7)}` +
            `${lpad(num(result.timeToMergeMinutes.p50, 0), 7)}${lpad(num(result.timeToMergeMinutes.p95, 0), 7)}` +
            `${lpad(num(result.ciRunsPerMerged), 9)}${lpad(`${result.pairRejected}/${result.semanticPairs}`, 8)}` +
            `${lpad(String(result.brokenMain), 13)}${lpad(String(result.stillQueued), 8)}`,
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
log('bench:queue — virtual clock, fixed seeds; ratios are against bounds computed in the same run');
log(`BENCH_QUEUE_HOURS=${HOURS} BENCH_QUEUE_SEEDS=${SEEDS} BENCH_QUEUE_SEED=${SEED}`);
log('');
const closedFormsOk = closedFormChecks();
workloadGrid();
const flakeOk = flakeTolerance();
log('## 4. Correctness');
log(
  `  broken main over every run (a broken change, or both halves of a pair): ${brokenMainTotal} (goal 0) ${brokenMainTotal === 0 ? 'met' : 'MISSED'}`,
);
log(`  semantic-conflict pairs drawn: ${pairsTotal}, halves dropped by the queue: ${pairsDroppedTotal}`);
log(`  serial merges main did not match a passing run exactly: ${uncheckedTotal} (goal 0)`);
log('');
const seconds = (performance.now() - started) / 1000;
log(
  `${simulatedPullRequests.toLocaleString('en-US')} simulated pull requests in ${seconds.toFixed(1)} s of wall-clock time`,
);
if (!closedFormsOk || !flakeOk || brokenMainTotal > 0 || uncheckedTotal > 0) process.exitCode = 1;
