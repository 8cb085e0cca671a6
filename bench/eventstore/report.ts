import { cpus, loadavg, totalmem } from 'node:os';

export interface Measurement {
  label: string;
  events: number;
  oursMs: number;
  rawMs: number;
}

const rate = (events: number, ms: number) => (events / ms) * 1000;
const formatRate = (value: number) => Math.round(value).toLocaleString('en-US');

export function printTable(title: string, measurements: Measurement[]): void {
  const rows = measurements.map((m) => {
    const ours = rate(m.events, m.oursMs);
    const raw = rate(m.events, m.rawMs);
    return [
      m.label,
      m.events.toLocaleString('en-US'),
      formatRate(ours),
      formatRate(raw),
      (ours / raw).toFixed(2),
    ];
  });
  const header = ['measurement', 'events', 'ours ev/s', 'raw ev/s', 'ours/raw'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

export function printMachine(extra: string[]): void {
  const cpu = cpus();
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
  process.stdout.write(
    [
      `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB RAM`,
      `node ${process.version}, load average at start ${load} (the machine is shared; ratios are measured in alternating rounds)`,
      ...extra,
    ].join('\n') + '\n',
  );
}
