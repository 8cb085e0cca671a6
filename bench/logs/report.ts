import { cpus, loadavg, totalmem } from 'node:os';
import type { LatencySummary } from './latency';

export interface ScenarioResult {
  label: string;
  http: LatencySummary;
  sql: LatencySummary;
  /** The p99 goal in milliseconds, when the scenario has one. */
  p99GoalMs?: number;
}

/** HTTP may cost at most this much over the same SQL run directly. */
export const RATIO_GOAL = 1.5;

const ms = (value: number) => `${value.toFixed(2)} ms`;

export function printScenarios(results: readonly ScenarioResult[]): string[] {
  const header = [
    'scenario',
    'n',
    'HTTP p50',
    'HTTP p99',
    'SQL p50',
    'SQL p99',
    'ratio p50',
    'ratio p99',
    'p99 goal',
  ];
  const rows = results.map((r) => [
    r.label,
    String(r.http.count),
    ms(r.http.p50),
    ms(r.http.p99),
    ms(r.sql.p50),
    ms(r.sql.p99),
    `${(r.http.p50 / r.sql.p50).toFixed(2)}x`,
    `${(r.http.p99 / r.sql.p99).toFixed(2)}x`,
    r.p99GoalMs === undefined ? '-' : `< ${r.p99GoalMs} ms`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);

  const verdicts: string[] = [];
  for (const r of results) {
    if (r.p99GoalMs !== undefined) {
      const met = r.http.p99 < r.p99GoalMs;
      verdicts.push(
        `${r.label}: p99 ${ms(r.http.p99)} against < ${r.p99GoalMs} ms: ${met ? 'met' : `MISSED by ${ms(r.http.p99 - r.p99GoalMs)}`}`,
      );
    }
    const ratio = r.http.p50 / r.sql.p50;
    verdicts.push(
      `${r.label}: HTTP/SQL ${ratio.toFixed(2)}x at p50 against <= ${RATIO_GOAL}x: ${
        ratio <= RATIO_GOAL
          ? 'met'
          : `MISSED by ${(ratio - RATIO_GOAL).toFixed(2)}x (${ms(r.http.p50 - r.sql.p50)} of HTTP, Nest and JSON per request)`
      }`,
    );
  }
  process.stdout.write(`\n${verdicts.join('\n')}\n`);
  return verdicts;
}

/**
 * The first page beside its peers (page-peers-server.ts): what the same statement costs over HTTP
 * with nothing of ours around it, so the ratio goal can be read against what any server reaches.
 */
export function printPagePeers(first: {
  ours: LatencySummary;
  nest: LatencySummary;
  bare: LatencySummary;
  sql: LatencySummary;
}): void {
  const ratio = (summary: LatencySummary) => `${(summary.p50 / first.sql.p50).toFixed(2)}x`;
  const rows: Array<[string, LatencySummary]> = [
    ['ours (GET logs)', first.ours],
    ['Nest peer: a guard, the statement, the JSON', first.nest],
    ['bare Fastify peer: the same check, statement and JSON', first.bare],
  ];
  process.stdout.write(
    `\nfirst page, no filter, beside peers serving the same statement (p50, × the SQL's ${ms(first.sql.p50)}):\n`,
  );
  for (const [label, summary] of rows) {
    process.stdout.write(`  ${label.padEnd(54)} ${ms(summary.p50).padStart(9)}  ${ratio(summary)}\n`);
  }
}

export function printMachine(lines: string[]): void {
  const cpu = cpus();
  process.stdout.write(
    [
      `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM, load ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
      `node ${process.version}`,
      ...lines,
    ].join('\n') + '\n',
  );
}
