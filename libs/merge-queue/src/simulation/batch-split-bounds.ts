/**
 * Ceilings for batch-and-split policies on a saturated queue (bench/README.md, "The information
 * bound" and "The best split of a fixed batch"): pull requests broken independently with
 * probability p, CI taking exactly T hours, a failure seen only at the end of a run, no flakes.
 * Throughputs are merged pull requests per hour.
 */

/** H(p) = −p·log₂ p − q·log₂ q: the bits it takes, on average, to tell whether one pull request is broken. */
export const binaryEntropy = (p: number): number =>
  p <= 0 || p >= 1 ? 0 : -p * Math.log2(p) - (1 - p) * Math.log2(1 - p);

/**
 * The information bound on throughput: a CI run answers pass or fail, one bit at most, and sorting
 * n pull requests into good and broken takes n·H(p) bits, so at least H(p) runs per pull request
 * and H(p)/q per merged one. `slots` runs at a time, each T long: slots·q / (H(p)·T).
 */
export const informationThroughput = (p: number, hours: number, slots = 1): number =>
  p <= 0 ? Infinity : (slots * (1 - p)) / (binaryEntropy(p) * hours);

export interface BatchSplitCeiling {
  throughput: number;
  /** Merged pull requests per CI run: the throughput times T. */
  mergesPerRun: number;
  runsPerMerged: number;
}

/**
 * The value, in merges − ρ·runs, of resolving a set of `m` pull requests known to hold a broken
 * one (the cycle's other pull requests went back to the queue, as good as new).
 */
type KnownFailing = (rho: number) => (m: number) => number;

/** P(the first k of m pass | the m hold at least one broken): q^k (1 − q^(m−k)) / (1 − q^m). */
const firstPass = (q: number, k: number, m: number): number => (q ** k * (1 - q ** (m - k))) / (1 - q ** m);

/**
 * The long-run merges per run ρ* of a policy that checks a batch of b fresh pull requests and
 * resolves a failure with `knownFailing`. Each batch starts a renewal cycle, so ρ* is the root of
 * E[merges − ρ·runs over a cycle] = 0 (decreasing in ρ), found by bisection.
 */
function ceilingOf(b: number, p: number, hours: number, knownFailing: KnownFailing): BatchSplitCeiling {
  const q = 1 - p;
  const cycle = (rho: number) => -rho + q ** b * b + (1 - q ** b) * knownFailing(rho)(b);
  let low = 0;
  let high = b;
  if (p > 0)
    for (let step = 0; step < 100; step++) {
      const middle = (low + high) / 2;
      if (cycle(middle) > 0) low = middle;
      else high = middle;
    }
  const rho = p > 0 ? low : b;
  return { throughput: rho / hours, mergesPerRun: rho, runsPerMerged: 1 / rho };
}

/**
 * The best any policy with a fixed batch of b does on one CI slot, by dynamic programming over
 * split strategies. After a batch fails, a policy checks sub-batches of the failing set, one at a
 * time on top of what merged; a sub-batch that passes merges at once (a merge needs a run that
 * checked exactly it). The pull requests of a failing set are alike, so a check is fixed by its
 * size k: with m known to hold a broken one, checking k < m of them gives
 *   pass (probability firstPass(k, m)): k merge, and the other m − k hold a broken one;
 *   fail: those k hold a broken one, and the m − k others go back to the queue, as good as new.
 * A set of one is its own culprit, dropped without a run. V(m) = max over k of the expected value.
 */
export function bestFixedBatch(b: number, p: number, hours: number): BatchSplitCeiling {
  const q = 1 - p;
  return ceilingOf(b, p, hours, (rho) => {
    const memo = new Map<number, number>();
    const value = (m: number): number => {
      if (m <= 1) return 0;
      const known = memo.get(m);
      if (known !== undefined) return known;
      let best = -Infinity;
      for (let k = 1; k < m; k++) {
        const pass = firstPass(q, k, m);
        best = Math.max(best, -rho + pass * (k + value(m - k)) + (1 - pass) * value(k));
      }
      memo.set(m, best);
      return best;
    };
    return value;
  });
}

/**
 * The engine's own split (Mergify's, queue-semantics §2.5) in the same model: a failing set of m
 * keeps its last pull request aside (its failure on top of the others is known) and splits the
 * other m − 1 into `parts` chunks of ⌈(m − 1)/parts⌉, checked one after the other on one slot;
 * a failing chunk is split the same way and the chunks behind it go back to the queue.
 */
export function mergifySplitBatch(b: number, p: number, hours: number, parts = 2): BatchSplitCeiling {
  const q = 1 - p;
  return ceilingOf(b, p, hours, (rho) => {
    const split = (m: number): number => {
      if (m <= 1) return 0;
      const head = m - 1;
      const size = Math.ceil(head / parts);
      const chunks: number[] = [];
      for (let start = 0; start < head; start += size) chunks.push(Math.min(size, head - start));
      return chunksValue(chunks, m);
    };
    const chunksValue = (chunks: readonly number[], m: number): number => {
      const [chunk, ...rest] = chunks;
      if (chunk === undefined) return 0;
      const pass = firstPass(q, chunk, m);
      return -rho + pass * (chunk + chunksValue(rest, m - chunk)) + (1 - pass) * split(chunk);
    };
    return split;
  });
}
