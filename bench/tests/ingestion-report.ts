import { median } from '../logs/latency';
import type { RoundFigures } from './ingestion-rounds';

const rate = (perSecond: number) => Math.round(perSecond).toLocaleString('en-US');
const ratio = (value: number) => `${value.toFixed(2)}×`;
const range = (values: readonly number[], format: (value: number) => string) =>
  values.length === 1 ? format(values[0]!) : `${format(Math.min(...values))}–${format(Math.max(...values))}`;

/** One round, for the progress log: each side's rate, and ours and the floor against the raw insert. */
export function roundLine(round: number, { ours, raw, floor }: RoundFigures): string {
  return (
    `round ${round + 1}: ours ${rate(ours.rate)}/s, raw insert ${rate(raw.rate)}/s → ${ratio(ours.rate / raw.rate)}; ` +
    `floor ${rate(floor.rate)}/s → ${ratio(floor.rate / raw.rate)}; ours/floor ${ratio(ours.rate / floor.rate)}`
  );
}

/**
 * The ingestion figures over all rounds: medians, with each ratio taken within its round (the
 * sides of one round ran minutes apart at most, those of two rounds may not have), and ranges.
 */
export function ingestionLines(
  figures: readonly RoundFigures[],
  run: { uploads: number; executions: number; concurrency: number; onPostgres: boolean },
): string[] {
  const perThousand = (seconds: number) => ((seconds * 1e6) / run.executions).toFixed(1);
  const ours = figures.map((f) => f.ours.rate);
  const raw = figures.map((f) => f.raw.rate);
  const ratios = figures.map((f) => f.ours.rate / f.raw.rate);
  const floorRatios = figures.map((f) => f.floor.rate / f.raw.rate);
  // Ours against the least an event-sourced ingestion does: what HTTP, read-your-writes, the
  // per-test counts and health cost on top, free of how fast the raw insert ran that round.
  const oursOfFloor = figures.map((f) => f.ours.rate / f.floor.rate);
  const oursCpu = figures.map((f) => f.ours.appCpu + f.ours.databaseCpu);
  const rawCpu = figures.map((f) => f.raw.cpu);
  const oursWhere = run.onPostgres
    ? `app ${perThousand(median(figures.map((f) => f.ours.appCpu)))} + its PostgreSQL backends ` +
      perThousand(median(figures.map((f) => f.ours.databaseCpu)))
    : 'app process, PGlite inside';
  const idles = figures.flatMap((f) => (f.ours.idle === null ? [] : [f.ours.idle]));
  const idleNote =
    idles.length === 0 ? '' : `; the machine was ${(100 * median(idles)).toFixed(0)} % idle while ours ran`;
  const rounds = `median of ${figures.length} round${figures.length === 1 ? '' : 's'}`;
  return [
    `ingestion (${rounds}; ${run.uploads} uploads of ${run.executions / run.uploads}, ${run.concurrency} concurrent, ` +
      `gzip, read-your-writes): ${rate(median(ours))} executions/s end to end (${range(ours, rate)}); ` +
      `raw insert of the same rows ${rate(median(raw))}/s (${range(raw, rate)}) → ${ratio(median(ratios))} ` +
      `(rounds: ${ratios.map(ratio).join(', ')}) (goals ≥ 20,000/s on PostgreSQL, ≥ 0.5×)`,
    `CPU per 1,000 executions (${rounds}): ours ${perThousand(median(oursCpu))} ms (${oursWhere}), ` +
      `raw ${perThousand(median(rawCpu))} ms → raw/ours ` +
      `${ratio(median(figures.map((f) => f.raw.cpu / (f.ours.appCpu + f.ours.databaseCpu))))} ` +
      `(CPU time is steadier than wall time on a shared machine)${idleNote}`,
    `event-sourced floor (decode, append as jsonb, read back, insert; one upload at a time; ${rounds}): ` +
      `${rate(median(figures.map((f) => f.floor.rate)))} executions/s, ${ratio(median(floorRatios))} the raw insert ` +
      `(${range(floorRatios, ratio)}); ${perThousand(median(figures.map((f) => f.floor.cpu)))} ms of CPU per 1,000; ` +
      `ours ${ratio(median(oursOfFloor))} the floor (rounds: ${oursOfFloor.map(ratio).join(', ')})`,
  ];
}
