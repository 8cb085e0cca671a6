/**
 * Closed-form bounds for a saturated queue (performance-anchors §1.2): pull requests broken
 * independently with probability p, CI taking exactly T hours, failures seen at the end of a run,
 * no flakes. Throughputs are merged pull requests per hour.
 */
export const serialThroughput = (p: number, hours: number): number => (1 - p) / hours;

/** Speculative depth k, batch 1, synchronous rounds: q(1 − q^k) / (p·T). */
export const speculativeThroughput = (k: number, p: number, hours: number): number => {
  const q = 1 - p;
  return p === 0 ? k / hours : (q * (1 - q ** k)) / (p * hours);
};

export const speculativeRunsPerMerged = (k: number, p: number): number => {
  const q = 1 - p;
  return p === 0 ? 1 : (k * p) / (q * (1 - q ** k));
};

/**
 * Batch of b with bors-style halving on one CI slot: F(n) extra runs for a batch of n known to
 * hold a broken change, E(b) = 1 + (1 − q^b)·F(b) runs per batch.
 */
export const halvingBatch = (
  b: number,
  p: number,
  hours: number,
): { throughput: number; runsPerMerged: number } => {
  const q = 1 - p;
  const memo = new Map<number, number>();
  const extra = (n: number): number => {
    if (n <= 1) return 0;
    const cached = memo.get(n);
    if (cached !== undefined) return cached;
    const a = Math.floor(n / 2);
    const c = n - a;
    const failing = 1 - q ** n;
    const value = 2 + ((1 - q ** a) / failing) * extra(a) + ((1 - q ** c) / failing) * extra(c);
    memo.set(n, value);
    return value;
  };
  const runsPerBatch = 1 + (1 - q ** b) * extra(b);
  return { throughput: (b * q) / (runsPerBatch * hours), runsPerMerged: runsPerBatch / (b * q) };
};

/** Information bound on CI runs per merged pull request: H(p)/(1 − p). */
export const informationBound = (p: number): number => {
  if (p <= 0 || p >= 1) return 0;
  const entropy = -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);
  return entropy / (1 - p);
};
