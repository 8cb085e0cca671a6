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
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < warmup + iterations; i++) {
    const input = prepare(i);
    const order = i % 2 === 0 ? [first, second] : [second, first];
    for (const run of order) {
      const started = performance.now();
      await run(input);
      const elapsed = performance.now() - started;
      if (i >= warmup) (run === first ? a : b).push(elapsed);
    }
  }
  return [summarize(a), summarize(b)];
}
