/** Latency samples in milliseconds, and the percentiles the report quotes. */
export interface LatencySummary {
  p50: number;
  p99: number;
  count: number;
}

/** Nearest-rank percentile. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The middle value (the upper of the two middle ones of an even count): what benches' rounds report. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const summarize = (samples: readonly number[]): LatencySummary => ({
  p50: percentile(samples, 50),
  p99: percentile(samples, 99),
  count: samples.length,
});

/**
 * Times two ways of doing the same thing, alternating them so that drift (other load on the
 * machine, cache warmth) falls on both alike. Each iteration gets its own input from `prepare`.
 */
export async function alternate<T>(
  iterations: number,
  warmup: number,
  prepare: (iteration: number) => T,
  first: (input: T) => Promise<unknown>,
  second: (input: T) => Promise<unknown>,
): Promise<[LatencySummary, LatencySummary]> {
  const [a, b] = await rotate(iterations, warmup, prepare, [first, second]);
  return [a!, b!];
}

/** The same for any number of ways: each iteration runs them all, starting one further along. */
export async function rotate<T>(
  iterations: number,
  warmup: number,
  prepare: (iteration: number) => T,
  ways: ReadonlyArray<(input: T) => Promise<unknown>>,
): Promise<LatencySummary[]> {
  const samples = ways.map(() => [] as number[]);
  for (let i = 0; i < warmup + iterations; i++) {
    const input = prepare(i);
    for (let k = 0; k < ways.length; k++) {
      const way = (i + k) % ways.length;
      const started = performance.now();
      await ways[way]!(input);
      const elapsed = performance.now() - started;
      if (i >= warmup) samples[way]!.push(elapsed);
    }
  }
  return samples.map(summarize);
}
