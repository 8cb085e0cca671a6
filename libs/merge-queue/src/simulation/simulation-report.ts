import type { QueuePolicy } from '../domain/policy';
import type { SimulationResult } from './simulate';
import type { Workload } from './workload';

const BLOCKS = [' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/** A small terminal chart: one column per sample, `rows` characters high. */
export function queueLengthChart(samples: SimulationResult['queueLength'], rows = 6): string[] {
  if (samples.length === 0) return [];
  const peak = Math.max(1, ...samples.map((s) => s.length));
  const lines: string[] = [];
  for (let row = rows - 1; row >= 0; row--) {
    const cells = samples.map(({ length }) => {
      const filled = (length / peak) * rows - row;
      return BLOCKS[Math.max(0, Math.min(8, Math.round(filled * 8)))]!;
    });
    const label = row === rows - 1 ? String(peak).padStart(5) : row === 0 ? '0'.padStart(5) : ' '.repeat(5);
    lines.push(`${label} │${cells.join('')}`);
  }
  const hours = samples[samples.length - 1]!.hour;
  const axis = `0 h${' '.repeat(Math.max(1, samples.length - 3 - `${Math.round(hours)} h`.length))}${Math.round(hours)} h`;
  lines.push(`${' '.repeat(5)} └${'─'.repeat(samples.length)}`);
  lines.push(`${' '.repeat(7)}${axis}`);
  return lines;
}

const minutes = (value: number | null): string => (value === null ? 'n/a' : `${Math.round(value)} min`);

/** What a team wants to know before adopting a configuration. */
export function formatSimulationReport(
  result: SimulationResult,
  policy: QueuePolicy,
  workload: Workload,
): string[] {
  const rule = policy.rules[0]!;
  const size =
    typeof rule.batchSize === 'number'
      ? String(rule.batchSize)
      : `${rule.batchSize.min}..${rule.batchSize.max}`;
  const rejected = result.goodRejected + result.badRejected + result.pairRejected;
  const pairs =
    result.semanticPairs > 0
      ? `, ${result.pairRejected} halves of the ${result.semanticPairs} semantic-conflict pairs`
      : '';
  return [
    `Policy: mode ${policy.mergeQueue.mode}, max_parallel_checks ${policy.mergeQueue.maxParallelChecks}, ` +
      `batch_size ${size}, max_checks_retries ${rule.maxChecksRetries}, ` +
      `skip_intermediate_results ${policy.mergeQueue.skipIntermediateResults}`,
    `Workload: ${describeArrivals(workload)}, CI ${workload.ci.minutes} min ±${Math.round(workload.ci.spread * 100)}%, ` +
      `${(workload.failureRate * 100).toFixed(1)}% broken, ${(workload.flakeRate * 100).toFixed(1)}% flaky runs, ` +
      `${workload.hours} h, seed ${workload.seed}`,
    '',
    `Throughput            ${result.mergedPerHour.toFixed(2)} merged PR/h (${result.merged} merged of ${result.arrived} queued)`,
    `Time to merge         p50 ${minutes(result.timeToMergeMinutes.p50)}, p95 ${minutes(result.timeToMergeMinutes.p95)}`,
    `CI runs per merged PR ${result.ciRunsPerMerged === null ? 'n/a' : result.ciRunsPerMerged.toFixed(2)} (${result.ciRuns} runs)`,
    `Dequeued              ${rejected} (${result.badRejected} broken${pairs}, ${result.goodRejected} good ones lost to flaky runs)`,
    `Broken main           ${result.brokenMain}`,
    `Still queued at end   ${result.stillQueued}`,
    '',
    'Queue length over time:',
    ...queueLengthChart(result.queueLength),
  ];
}

const describeArrivals = (workload: Workload): string => {
  const { arrivals } = workload;
  if (arrivals.kind === 'poisson') return `${arrivals.perHour} PR/h`;
  if (arrivals.kind === 'burst') return `${arrivals.count} PRs at once`;
  return `${arrivals.pullRequests.length} listed PRs`;
};
