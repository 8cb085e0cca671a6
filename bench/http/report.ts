import type { LoadResult } from './load';

export interface ScenarioOutcome {
  label: string;
  ours: LoadResult;
  baseline: LoadResult;
  /** Our req/s must reach this fraction of the baseline's. */
  throughputGoal: number;
  /** Our p99 must stay at or under this many milliseconds, when set. */
  p99GoalMs?: number;
}

const rate = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
const micros = (value: number) => (Number.isFinite(value) ? `${value.toFixed(0)} µs` : '-');
const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : '-');

/** The middle of the rounds, so one disturbed round does not make the figure. */
export function median(results: readonly LoadResult[]): LoadResult {
  // A run that served nothing has no latency: it counts as the slowest.
  const middle = <T>(values: T[], key: (value: T) => number) => {
    const sorted = values.map((value) => key(value)).map((n) => (Number.isNaN(n) ? Infinity : n));
    return sorted.sort((a, b) => a - b)[Math.floor(sorted.length / 2)]!;
  };
  return {
    requestsPerSecond: middle([...results], (r) => r.requestsPerSecond),
    p50: middle([...results], (r) => r.p50),
    p99: middle([...results], (r) => r.p99),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
    serverCpuMicros: middle([...results], (r) => r.serverCpuMicros),
  };
}

export function printOutcomes(outcomes: readonly ScenarioOutcome[]): void {
  const header = [
    'scenario',
    'server',
    'req/s',
    'p50',
    'p99',
    'CPU/req',
    'requests',
    'failed',
    'ratio req/s',
  ];
  const rows = outcomes.flatMap((o) => [
    [
      o.label,
      'switchyard',
      rate(o.ours.requestsPerSecond),
      ms(o.ours.p50),
      ms(o.ours.p99),
      micros(o.ours.serverCpuMicros),
      String(o.ours.requests),
      String(o.ours.failures),
      `${(o.ours.requestsPerSecond / o.baseline.requestsPerSecond).toFixed(2)}x`,
    ],
    [
      '',
      'bare fastify',
      rate(o.baseline.requestsPerSecond),
      ms(o.baseline.p50),
      ms(o.baseline.p99),
      micros(o.baseline.serverCpuMicros),
      String(o.baseline.requests),
      String(o.baseline.failures),
      '',
    ],
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);

  const verdicts: string[] = [];
  for (const o of outcomes) {
    const failures = o.ours.failures + o.baseline.failures;
    if (failures > 0) {
      verdicts.push(
        `${o.label}: ${failures} requests failed (non-2xx, errors or timeouts): the figures are not valid`,
      );
    }
    const ratio = o.ours.requestsPerSecond / o.baseline.requestsPerSecond;
    verdicts.push(
      `${o.label}: ${ratio.toFixed(2)}x the bare route's req/s against >= ${o.throughputGoal}x: ${
        ratio >= o.throughputGoal ? 'met' : `MISSED by ${(o.throughputGoal - ratio).toFixed(2)}x`
      }`,
    );
    if (o.p99GoalMs !== undefined) {
      verdicts.push(
        `${o.label}: p99 ${ms(o.ours.p99)} against <= ${o.p99GoalMs} ms: ${
          o.ours.p99 <= o.p99GoalMs ? 'met' : `MISSED by ${ms(o.ours.p99 - o.p99GoalMs)}`
        }`,
      );
    }
  }
  process.stdout.write(`\n${verdicts.join('\n')}\n`);
}
