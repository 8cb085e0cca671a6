import type { RunningHttpApp } from '@switchyard/app';

/**
 * bench:engine --storm's view of the processors: `/readyz` every second, each processor's
 * distance behind the head as an operator sees it, and how that distance moved.
 */
const out = (line = '') => process.stdout.write(`${line}\n`);
const log = (line: string) => process.stderr.write(`[bench:engine --storm] ${line}\n`);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Least-squares slope of `points` (seconds → value), per second; NaN with fewer than two points. */
function slope(points: { t: number; v: number }[]): number {
  if (points.length < 2) return Number.NaN;
  const meanT = points.reduce((sum, p) => sum + p.t, 0) / points.length;
  const meanV = points.reduce((sum, p) => sum + p.v, 0) / points.length;
  const covariance = points.reduce((sum, p) => sum + (p.t - meanT) * (p.v - meanV), 0);
  const variance = points.reduce((sum, p) => sum + (p.t - meanT) ** 2, 0);
  return variance === 0 ? 0 : covariance / variance;
}

export interface LagSample {
  at: number;
  phase: Phase;
  behind: Map<string, number>;
}
export type Phase = 'calm' | 'storm' | 'drain';

/** `/readyz` every second: each processor's distance behind the head, as an operator sees it. */
export function sampleLag(running: RunningHttpApp, phase: () => Phase) {
  const samples: LagSample[] = [];
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      try {
        const response = await fetch(`${running.url}/readyz`);
        const body = (await response.json()) as {
          checks?: Array<{
            name: string;
            details?: { processors?: Array<{ name: string; behind: number | null }> };
          }>;
        };
        const processors =
          body.checks?.find((check) => check.name === 'processors')?.details?.processors ?? [];
        // A processor run in partitions (`name#i/n`, on PostgreSQL) counts as its most-behind one.
        const behind = new Map<string, number>();
        for (const p of processors) {
          if (p.behind === null) continue;
          const name = p.name.replace(/#\d+\/\d+$/, '');
          behind.set(name, Math.max(behind.get(name) ?? 0, p.behind));
        }
        samples.push({ at: started, phase: phase(), behind });
      } catch (error) {
        log(`/readyz: ${String(error)}`);
      }
      await pause(Math.max(0, 1000 - (Date.now() - started)));
    }
  })();
  return {
    samples,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/**
 * Lag over time (the most-behind processor every 5 s) and, for each processor that was ever
 * behind, its worst in each phase and its trend over the storm's second half: a processor that
 * keeps up has a slope near 0 there, one that cannot grows by up to the delivery rate.
 */
export function printLag(
  samples: LagSample[],
  stormStarted: number,
  stormEnded: number,
  caughtUp: boolean,
  drainSeconds: number,
): { name: string; trend: number } {
  let steepest = { name: '–', trend: Number.NEGATIVE_INFINITY };
  out(`\nprocessor lag: events behind the head, /readyz every second (${samples.length} samples)`);
  const start = samples[0]?.at ?? stormStarted;
  const rows: string[] = [];
  for (let from = start; from <= (samples.at(-1)?.at ?? start); from += 5_000) {
    const window = samples.filter((s) => s.at >= from && s.at < from + 5_000);
    if (window.length === 0) continue;
    let worst = { name: '–', behind: 0 };
    for (const sample of window)
      for (const [name, behind] of sample.behind) if (behind > worst.behind) worst = { name, behind };
    rows.push(
      `  t=${`${((from - stormStarted) / 1000).toFixed(0)} s`.padStart(6)} ${window[0]!.phase.padEnd(5)} max ${String(worst.behind).padStart(6)} (${worst.name})`,
    );
  }
  out(rows.join('\n'));
  const names = new Set(
    samples.flatMap((s) => [...s.behind].filter(([, behind]) => behind > 0).map(([name]) => name)),
  );
  const secondHalf = samples.filter((s) => s.at >= (stormStarted + stormEnded) / 2 && s.at < stormEnded);
  out(
    `${'  processor'.padEnd(40)} ${'calm max'.padStart(9)} ${'storm max'.padStart(10)} ${'at end'.padStart(7)} ${'trend 2nd half'.padStart(15)}`,
  );
  for (const name of [...names].sort()) {
    const of = (phase: Phase) => samples.filter((s) => s.phase === phase).map((s) => s.behind.get(name) ?? 0);
    const atEnd =
      [...samples]
        .reverse()
        .find((s) => s.at < stormEnded)
        ?.behind.get(name) ?? 0;
    const trend = slope(secondHalf.map((s) => ({ t: s.at / 1000, v: s.behind.get(name) ?? 0 })));
    if (trend > steepest.trend) steepest = { name, trend };
    out(
      `  ${name.padEnd(38)} ${String(Math.max(0, ...of('calm'))).padStart(9)} ${String(Math.max(0, ...of('storm'))).padStart(10)} ${String(atEnd).padStart(7)} ${`${trend >= 0 ? '+' : ''}${trend.toFixed(1)}/s`.padStart(15)}`,
    );
  }
  out(
    `  after the storm every processor ${caughtUp ? `reached the head in ${drainSeconds.toFixed(1)} s` : 'had NOT reached the head after 300 s'}`,
  );
  return steepest;
}
