import { cpus, loadavg, totalmem } from 'node:os';
import type { FilteredFeedResult } from './filtered-feed';
import type { HotStreamResult } from './hot-streams';

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
  printRows(title, [['measurement', 'events', 'ours ev/s', 'raw ev/s', 'ours/raw'], ...rows]);
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

const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const count = (value: number) => value.toLocaleString('en-US');

export function printFilteredFeed(result: FilteredFeedResult): void {
  const { bigFeed, matching } = result;
  const rows = [
    [`${count(matching)}-event feed, all match (baseline)`, count(matching), ms(result.baselineMs), '1.00'],
    [
      `${count(bigFeed)}-event feed, 1 % match, filtered`,
      count(matching),
      ms(result.filteredMs),
      (result.filteredMs / result.baselineMs).toFixed(2),
    ],
    [
      `${count(bigFeed)}-event feed, unfiltered`,
      count(bigFeed),
      ms(result.unfilteredMs),
      (result.unfilteredMs / result.baselineMs).toFixed(2),
    ],
  ];
  printRows('filtered catch-up by event type, pages of 1000 (median of 3 reads)', [
    ['read', 'events', 'time', 'time/baseline'],
    ...rows,
  ]);
}

export function printHotStreams(result: HotStreamResult): void {
  const { shortEvents, longEvents } = result;
  printRows(
    `command latency, snapshots every 100 events (median of ${result.commands} commands per stream)`,
    [
      ['stream', 'latency', 'long/short'],
      [`${count(shortEvents)} events`, ms(result.shortMs), '1.00'],
      [`${count(longEvents)} events`, ms(result.longMs), (result.longMs / result.shortMs).toFixed(2)],
      [
        `${count(longEvents)} events, first command (folds all, writes the snapshot)`,
        ms(result.firstLongMs),
        '',
      ],
      [
        `${count(longEvents)} events, without snapshots`,
        ms(result.longWithoutSnapshotsMs),
        (result.longWithoutSnapshotsMs / result.shortMs).toFixed(2),
      ],
    ],
  );
}

function printRows(title: string, [header, ...rows]: string[][]): void {
  const widths = header!.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(`\n${title}\n${line(header!)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}
